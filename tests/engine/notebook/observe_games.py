"""Random games of every format for the notebook's observation tests, where each card
really lies at each moment (the truth the facts are checked against), and a seat's
"scrub" of a game: the same log with everything that seat was never told changed."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import replace
from datetime import timedelta

from engine import events as ev
from engine.cards import CATEGORY_ORDER, CardId
from engine.evolve import evolve
from engine.liars import events as lev
from engine.liars.state import liars_of
from engine.notebook.facts import ENVELOPE, FACE_UP, ROOMS, Owner
from engine.settings import GameFormat, Settings
from engine.state import Game
from engine.y2023 import events as yev
from engine.y2023.cards import CLUES
from engine.y2023.state import y2023_of
from simulation.liarsplay import RandomLiars
from simulation.randomplay import RandomGame
from simulation.tableplay import RandomTable
from simulation.y2023play import RandomY2023

Where = dict[CardId, Owner]


def _liars(seed: int, players: int) -> RandomLiars:
    """Passes, peeks and caught lies often (a deck with many pass cards and lies)."""
    settings = Settings(
        format=GameFormat.LIARS,
        truth_pass_cards=2 + seed % 4,
        truth_peek_cards=1 + seed % 2,
        lie_cards=3 + seed % 5,
        liar_window=timedelta(seconds=10 + seed % 50),
    )
    return RandomLiars(seed=seed, players=players, settings=settings)


def _classic(seed: int, players: int) -> RandomTable:
    return RandomTable(seed=seed, players=players)


def _forum(seed: int, players: int) -> RandomGame:
    return RandomGame(seed=seed, players=players)


def _y2023(seed: int, players: int) -> RandomY2023:
    return RandomY2023(seed=seed, players=players)


# format -> (a random game of it, its player range)
FORMATS: dict[str, tuple[Callable[[int, int], RandomGame | RandomTable], tuple[int, int]]] = {
    "forum": (_forum, (3, 6)),
    "classic": (_classic, (3, 6)),
    "liars": (_liars, (3, 6)),
    "y2023": (_y2023, (2, 6)),
}


MOVES = 600  # a random game's moves at most (most end sooner; the rest stop unfinished)


def played(key: str, seed: int, players: int) -> list[ev.Event]:
    """A random game of the format, as its event log."""
    make, _ = FORMATS[key]
    game = make(seed, players)
    game.play(max_steps=MOVES)
    return game.events


def where(game: Game) -> Where:
    """Every card's owner now: a hand (a card on its way left still its giver's), the
    envelope, the face-up cards, or a room (the 2023 edition's cards face down)."""
    owner: Where = {}
    for player in game.players:
        owner.update(dict.fromkeys(player.hand, player.seat))
    assert game.envelope is not None
    owner.update(dict.fromkeys(game.envelope, ENVELOPE))
    liars = liars_of(game.table)
    if liars is not None:
        owner.update(dict.fromkeys(liars.face_up, FACE_UP))
        owner.update({card: seat for seat, card in liars.passes})
    y2023 = y2023_of(game.table)
    if y2023 is not None:
        owner.update(dict.fromkeys(y2023.face_up, FACE_UP))
    for card in game.deck:  # the 2023 edition's cards in rooms (also before the set-up)
        owner.setdefault(card, ROOMS)
    return owner


def states(events: list[ev.Event]) -> Iterator[tuple[ev.Event, Game]]:
    """Each event from the deal on, with the state after it."""
    game: Game | None = None
    for event in events:
        game = evolve(game, event)
        if game.envelope is not None:
            yield event, game


# --- what a seat was told -----------------------------------------------------------------


def named_to(events: list[ev.Event], seat: int) -> set[CardId]:
    """Every card the seat ever saw named: its hands, every suggestion's cards, what was
    shown to it or by it, what it passed or got, looked at, or saw revealed or face up."""
    seen: set[CardId] = set()
    suggesters: dict[int, int] = {}
    for event in events:
        match event:
            case ev.GameStarted():
                seen |= set(event.seats[seat].hand)
            case ev.SuggestionMade() | ev.AccusationMade() if _sees(event, seat):
                seen |= {event.suspect, event.weapon, event.place}
                if isinstance(event, ev.SuggestionMade):
                    suggesters[event.suggestion] = event.suggester
            case ev.TableSuggestionMade():
                seen |= {event.suspect, event.weapon, event.room}
                suggesters[event.suggestion] = event.suggester
            case ev.SuggestionRefuted() | ev.CardShown() if suggesters[event.suggestion] == seat:
                seen.add(event.card)
            case ev.AccusedAtTable() if event.seat == seat:
                seen |= {event.suspect, event.weapon, event.place}
            case lev.CardExposed() | yev.ClueRevealed():
                seen.add(event.card)
            case lev.TruthShown() if seat in (event.seat, event.reader) and event.card:
                seen.add(event.card)
            case lev.Peeked() if seat in (event.seat, event.target):
                seen |= set(event.cards)
            case lev.PassChosen() | yev.PlacedCardSeen() if event.seat == seat:
                seen.add(event.card)
            case lev.CardsPassed():
                seen |= {card for giver, to, card in event.moves if seat in (giver, to)}
            case yev.ClueCardShown() if event.to == seat and event.card:
                seen.add(event.card)
            case yev.ClueCardDrawn() if CLUES[event.clue].card is not None:
                seen.add(str(CLUES[event.clue].card))
            case yev.EditionSetUp():
                seen |= set(event.face_up)
    return seen


def _sees(event: ev.SuggestionMade | ev.AccusationMade, seat: int) -> bool:
    """A forum suggestion is public; an accusation its accuser's alone."""
    return isinstance(event, ev.SuggestionMade) or event.seat == seat


def scrubbed(events: list[ev.Event], seat: int, rng: random.Random) -> list[ev.Event]:
    """The log with what the seat was never told changed: a pass between others made with
    another card, the cards it never saw named swapped among themselves (in each category,
    all through the log, so the game stays whole), and every card shown, looked at or
    accused by others replaced."""
    events = other_pass(events, seat, rng)
    _, dealt = next(states(events))
    seen = named_to(events, seat)
    swap: dict[CardId, CardId] = {}
    for category in CATEGORY_ORDER:
        hidden = [c for c in dealt.in_play(category) if c not in seen]
        rng.shuffle(hidden)
        swap.update(zip(hidden, hidden[1:] + hidden[:1], strict=True))
    relabelled = [_relabel(e, lambda c: swap.get(c, c)) for e in events]
    return _replace_private(relabelled, seat, dealt.deck)


Swap = Callable[[CardId], CardId]


def _relabel(event: ev.Event, s: Swap) -> ev.Event:
    """The event with every card it names through `s` (the board's tokens and rooms
    are places, not cards, and stay)."""
    match event:
        case ev.GameStarted():
            seats = tuple(replace(d, hand=tuple(map(s, d.hand))) for d in event.seats)
            a, b, c = event.envelope
            return replace(event, envelope=(s(a), s(b), s(c)), seats=seats)
        case ev.SuggestionMade() | ev.AccusationMade() | ev.AccusedAtTable():
            return replace(
                event, suspect=s(event.suspect), weapon=s(event.weapon), place=s(event.place)
            )
        case ev.TableSuggestionMade():
            return replace(event, suspect=s(event.suspect), weapon=s(event.weapon))
        case ev.SuggestionRefuted() | ev.CardShown() | lev.CardExposed() | lev.PassChosen():
            return replace(event, card=s(event.card))
        case lev.TruthShown() | yev.ClueCardShown():
            return replace(event, card=s(event.card) if event.card else None)
        case lev.CardsPassed():
            return replace(event, moves=tuple((g, t, s(c)) for g, t, c in event.moves))
        case lev.Peeked():
            return replace(event, cards=tuple(map(s, event.cards)))
        case yev.EditionSetUp():
            placed = tuple((room, s(card)) for room, card in event.placed)
            return replace(event, placed=placed, face_up=tuple(map(s, event.face_up)))
        case yev.PlacedCardSeen() | yev.ClueRevealed():
            return replace(event, card=s(event.card))
    return event


def _replace_private(events: list[ev.Event], seat: int, deck: tuple[CardId, ...]) -> list[ev.Event]:
    """Cards shown to, looked at or accused by another, replaced by other cards."""
    named: dict[int, tuple[int, tuple[CardId, ...]]] = {}
    out: list[ev.Event] = []

    def other(card: CardId, among: tuple[CardId, ...] = deck) -> CardId:
        if card not in among:  # a pass made otherwise moved it
            return among[0]
        return among[(among.index(card) + 1) % len(among)]

    for event in events:
        match event:
            case ev.SuggestionMade():
                named[event.suggestion] = (
                    event.suggester,
                    (event.suspect, event.weapon, event.place),
                )
            case ev.TableSuggestionMade():
                named[event.suggestion] = (
                    event.suggester,
                    (event.suspect, event.weapon, event.room),
                )
            case ev.SuggestionRefuted() | ev.CardShown() if named[event.suggestion][0] != seat:
                event = replace(event, card=other(event.card, named[event.suggestion][1]))
            case ev.AccusationMade() | ev.AccusedAtTable() if event.seat != seat:
                event = replace(event, suspect=other(event.suspect), weapon=other(event.weapon))
            case lev.TruthShown() if seat not in (event.seat, event.reader) and event.card:
                event = replace(event, card=other(event.card))
            case lev.Peeked() if event.seat != seat:
                event = replace(event, cards=tuple(map(other, event.cards)))
            case yev.PlacedCardSeen() if event.seat != seat:
                event = replace(event, card=other(event.card))
            case yev.ClueCardShown() if event.to != seat and event.card:
                event = replace(event, card=other(event.card))
        out.append(event)
    return out


# --- a pass the seat did not see, made otherwise ------------------------------------------


def _suggesters(events: list[ev.Event]) -> dict[int, int]:
    return {
        e.suggestion: e.suggester
        for e in events
        if isinstance(e, ev.SuggestionMade | ev.TableSuggestionMade)
    }


def holdings_seen(event: ev.Event, seat: int, suggesters: dict[int, int]) -> set[CardId]:
    """The cards whose holder the event shows the seat."""
    match event:
        case lev.CardExposed():
            return {event.card}
        case ev.SuggestionRefuted() | ev.CardShown() if suggesters[event.suggestion] == seat:
            return {event.card}
        case lev.TruthShown() if seat in (event.seat, event.reader) and event.card:
            return {event.card}
        case lev.Peeked() if seat in (event.seat, event.target):
            return set(event.cards)
        case lev.PassChosen() if event.seat == seat:
            return {event.card}
        case lev.CardsPassed():
            return {card for giver, to, card in event.moves if seat in (giver, to)}
    return set()


def _swapped(event: ev.Event, seat: int, suggesters: dict[int, int], s: Swap) -> ev.Event:
    """A hidden holding's card through `s` (what the seat sees stays)."""
    match event:
        case ev.SuggestionRefuted() | ev.CardShown() if suggesters[event.suggestion] != seat:
            return replace(event, card=s(event.card))
        case lev.TruthShown() if seat not in (event.seat, event.reader) and event.card:
            return replace(event, card=s(event.card))
        case lev.Peeked() if seat not in (event.seat, event.target):
            return replace(event, cards=tuple(map(s, event.cards)))
        case lev.PassChosen() if event.seat != seat:
            return replace(event, card=s(event.card))
        case lev.CardsPassed():
            moves = tuple((g, t, c if seat in (g, t) else s(c)) for g, t, c in event.moves)
            return replace(event, moves=moves)
    return event


def other_pass(events: list[ev.Event], seat: int, rng: random.Random) -> list[ev.Event]:
    """The log with one pass between two other players made with another card of the
    giver's (both cards then trade places in every later hidden holding), where the seat
    never sees either card's holder afterwards; the log itself when there is none such."""
    suggesters = _suggesters(events)
    played_out = list(states(events))
    later: list[set[CardId]] = [set()]  # from each event on, backwards
    for event, _ in reversed(played_out):
        later.append(later[-1] | holdings_seen(event, seat, suggesters))
    later.reverse()
    choices: list[tuple[int, int, CardId, CardId]] = []
    for index, (event, _) in enumerate(played_out):
        if not isinstance(event, lev.CardsPassed):
            continue
        before = played_out[index - 1][1]
        for giver, to, card in event.moves:
            if seat in (giver, to) or card in later[index]:
                continue
            hand = before.players[giver].hand
            choices += [(index, giver, card, kept) for kept in hand if kept not in later[index]]
    if not choices:
        return events
    index, giver, card, kept = rng.choice(choices)
    turn = played_out[index][0]
    assert isinstance(turn, lev.CardsPassed)
    trade = {card: kept, kept: card}
    first = len(events) - len(played_out)  # the log's index of the first state's event
    out = list(events[: first + index])
    for at, event in enumerate(out):  # the giver's choice, made before the pass
        if isinstance(event, lev.PassChosen) and (event.turn, event.seat) == (turn.turn, giver):
            out[at] = replace(event, card=kept)
    moves = tuple((g, t, kept if g == giver else c) for g, t, c in turn.moves)
    out.append(replace(turn, moves=moves))
    swap: Swap = lambda c: trade.get(c, c)  # noqa: E731
    out += [_swapped(e, seat, suggesters, swap) for e in events[first + index + 1 :]]
    return out
