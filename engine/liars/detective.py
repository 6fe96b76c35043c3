"""A computer detective in the Liars Edition (its play, engine/detectives/plays.py): its
whole turn, since the ring of rooms and the investigation card are the edition's own, and
what the card asks of it on others' turns. It reads only its seat's notebook, its own
investigation card and answers, and what everyone sees (never another's card, read or
held).

- Its turn: accuse first when its level allows; roll; then the room in reach (round the
  ring, the passage, or staying) most worth asking in; suggest; read its investigation card
  (a truth as it is; a lie as any action for a novice, else the peek: two cards for it
  alone); look at the player it knows least of, or move to the room most worth asking in
  and ask again; a caught liar puts face up the card that reveals least; end the turn.
- Others' turns: pass left the card that reveals least (the one the neighbour has seen
  from it, else the one most have seen); call Liar! — a novice now and then, a sleuth never,
  an inspector on a peek when a lie is the likelier (the deck's counts less its own card,
  lying detectives reading the peek) and a truth would cost it nothing (the reader has
  seen every card it holds: the random card it would show tells nothing new).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine import commands as cmd
from engine.cards import CardId
from engine.computer import Level
from engine.ids import Seat
from engine.liars import commands as lcmd
from engine.liars import events as lev
from engine.liars.cards import LIE, Action
from engine.liars.checks import current_play, may_call
from engine.liars.queries import liars_options, waiting_passers
from engine.liars.state import Play, Stage, liars_part
from engine.table.state import Step

if TYPE_CHECKING:  # for its type only: engine.detectives loads its plays, and so this module
    from engine.detectives.detective import Detective

NOVICE_CALLS = 0.15  # how often a novice presses Liar!
LIKELY_LIE = 0.5  # an inspector calls a peek this likely a lie


def liars_move(detective: Detective) -> cmd.Command | None:
    """The detective's move in a Liars Edition game (None: nothing until something
    changes)."""
    game = detective.game
    seat = detective.seat
    play = current_play(game)
    if play is not None and play.stage is Stage.PASSING:
        if seat not in waiting_passers(game):
            return None
        hand = game.players[seat].hand
        left = (seat + 1) % len(game.players)
        card = detective.least_revealing(hand, left, seen_by(detective))
        return lcmd.PassCard(actor=detective.user, card=card)
    if play is not None and play.stage is Stage.WINDOW:
        return _call(detective, play)
    table = game.table
    if table is None or table.current != seat:
        return None
    return _turn(detective)


def _turn(detective: Detective) -> cmd.Command | None:
    game = detective.game
    user = detective.user
    o = liars_options(game, user)
    if o.expose:
        return lcmd.ExposeCard(
            actor=user, card=detective.least_revealing(o.expose, None, seen_by(detective))
        )
    if o.peek_at:
        return lcmd.PeekAt(actor=user, seat=_peek_target(detective, o.peek_at))
    if o.move_anywhere:
        return lcmd.MoveAnywhere(actor=user, room=detective.best_room(o.move_anywhere))
    if o.can_roll:
        accused = detective.accusation() if o.can_accuse else None
        return accused or cmd.Roll(actor=user)
    if o.step is Step.MOVE:
        table = game.table
        assert table is not None
        here = table.place_of(detective.player.role)
        reachable = detective.rooms_in_reach(o.rooms, o.passage, o.can_stay, here)
        return reachable[detective.best_room(reachable)] if reachable else None
    if o.suggest_in is not None:
        suspect, weapon = detective.suggestion(o.suggest_in)
        return cmd.Suggest(actor=user, suspect=suspect, weapon=weapon)
    if o.reads:
        return lcmd.PlayInvestigation(actor=user, action=_reading(detective, o.reads).value)
    return cmd.EndTurn(actor=user) if o.can_end_turn else None


def _reading(detective: Detective, reads: tuple[Action, ...]) -> Action:
    """A truth card as it is; a lie card at random (novice), else as the peek."""
    if len(reads) == 1:
        return reads[0]
    if detective.level is Level.NOVICE:
        return detective.rng.choice(reads)
    return Action.PEEK if Action.PEEK in reads else reads[0]


def _peek_target(detective: Detective, seats: tuple[Seat, ...]) -> Seat:
    """Whose two random cards to look at: any (novice), else the player with the most
    cards it does not know (an inspector: the likeliest to show it two it does not)."""
    if detective.level is Level.NOVICE:
        return detective.rng.choice(seats)
    mind = detective.mind
    game = detective.game

    def unknown(seat: Seat) -> tuple[float, float]:
        size = len(game.players[seat].hand)
        known = sum(1 for card in mind.case.cards if mind.owner(card) == seat)
        left = max(size - known, 0)
        if detective.level is Level.SLEUTH:
            return float(left), detective.rng.random()
        return min(2, size) * left / size if size else 0.0, detective.rng.random()

    return max(seats, key=unknown)


def _call(detective: Detective, play: Play) -> cmd.Command | None:
    """Liar! or nothing (the window closes by itself). Calling a truth shows the reader a
    random card of the caller's; catching a lie puts one of the liar's face up for all and
    stops its action: over many games an inspector that calls every likely lie wins less
    than one that calls only when a truth costs it nothing."""
    game = detective.game
    player = detective.player
    if not may_call(game, player):
        return None
    user = detective.user
    if detective.level is Level.NOVICE:
        return lcmd.CallLiar(actor=user) if detective.rng.random() < NOVICE_CALLS else None
    if detective.level is Level.SLEUTH or play.action is not Action.PEEK:
        return None
    seen = seen_by(detective)
    costless = all(play.seat in seen.get(card, ()) for card in detective.player.hand)
    return lcmd.CallLiar(actor=user) if costless and lie_odds(detective) >= LIKELY_LIE else None


def lie_odds(detective: Detective) -> float:
    """How likely a peek read by another is a lie: the deck's lies against its truthful
    peeks, less the detective's own card, lying readers taken to read the peek."""
    settings = detective.game.settings
    lies = settings.lie_cards
    peeks = settings.truth_peek_cards
    own = liars_part(detective.game.table).held[detective.seat]
    if own == LIE:
        lies -= 1
    elif own == Action.PEEK.value:
        peeks -= 1
    return lies / (lies + peeks) if lies + peeks > 0 else 0.0


def seen_by(detective: Detective) -> dict[CardId, set[Seat]]:
    """Who has seen which of this seat's cards from it: shown for a suggestion, shown for
    a wrong Liar!, or passed left."""
    seen = {card: set(seats) for card, seats in detective.seen_by.items()}
    for e in detective.events:
        if isinstance(e, lev.TruthShown) and e.seat == detective.seat and e.card is not None:
            seen.setdefault(e.card, set()).add(e.reader)
        elif isinstance(e, lev.CardsPassed):
            for giver, to, card in e.moves:
                if giver == detective.seat:
                    seen.setdefault(card, set()).add(to)
    return seen
