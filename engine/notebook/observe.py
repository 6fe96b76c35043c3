"""One player's notebook facts, read from a game's events: everything the seat has been
told (bot/announce decides who is told what, and this mirrors it), and nothing else.

- The seat's own hand (HAND, always the current one) and every hand's size (public).
- A suggestion's answer. The suggester sees the card (SHOWN, or SHOWN_BY_GM for a silent,
  absent or departed refuter). The GM shows the first match in the order suspect, weapon,
  place (docs/rules-forum.md "The GM shows their first matching card, looking at the
  suspect first, then the weapon, then the place"; rules-classic.md "the GM shows their
  first match: suspect, then weapon, then room"), so a card it shows also proves the
  refuter lacks the cards named before it (GM_ORDER). Everyone else learns only that the
  refuter holds one of the three (REFUTED). "Could not refute" is public (NOT_REFUTED).
- A wrong accusation: its cards are told to the accuser alone, so only the accuser learns
  they are not all in the envelope (WRONG_ACCUSATION), in the forum when the window is
  judged, at the table at once.
- Each edition's own events, through its format's observers (engine/notebook/observers.py,
  by the format's key); cards that change owner carry the older facts over
  (engine/notebook/carry.py).
- A player who left keeps their cards (engine/admin.py), and a replaced seat keeps its
  notebook (it is the seat's), so neither changes any fact. Nothing is read from the end
  of the game, which shows everyone the envelope and every hand.

Each fact's `when` is the day (forum) or the turn (table) of the event.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from types import MappingProxyType

from engine import events as ev
from engine.cards import CATEGORY_ORDER, CardId
from engine.evolve import evolve
from engine.format import format_of, moment
from engine.ids import Seat
from engine.notebook.carry import carry
from engine.notebook.facts import (
    ENVELOPE,
    Case,
    Fact,
    Owner,
    Source,
    SourceKind,
    holds,
    lacks,
    not_all,
    one_of,
)
from engine.notebook.observed import NOTHING, Observed, Observer
from engine.notebook.observers import observers_of
from engine.state import Game
from engine.table.state import TableSuggestion

Step = tuple[ev.Event, int, Case]


def case_of(events: Iterable[ev.Event], seat: Seat, until: int | None = None) -> Case:
    """The seat's case after the events (with `until`: as it stood at the end of that day
    or turn). ValueError before the deal."""
    found: Case | None = None
    for _, when, case in notebook_steps(events, seat):
        if until is not None and when > until:
            break
        found = case
    if found is None:
        raise ValueError("no cards dealt yet")
    return found


def cases_over_time(events: Iterable[ev.Event], seat: Seat) -> Iterator[tuple[int, Case]]:
    """(when, the seat's case) from the deal on, each time its facts changed."""
    last: tuple[Fact, ...] | None = None
    for _, when, case in notebook_steps(events, seat):
        if case.facts is not last:
            last = case.facts
            yield when, case


def notebook_steps(events: Iterable[ev.Event], seat: Seat) -> Iterator[Step]:
    """After every event from the deal on: the event, its day or turn, the seat's case."""
    game: Game | None = None
    categories: tuple[tuple[CardId, ...], ...] = ()
    facts: tuple[Fact, ...] = ()
    sizes: tuple[tuple[Owner, int], ...] = ()  # as they were before the event
    for event in events:
        before, game = game, evolve(game, event)
        if isinstance(event, ev.GameStarted):
            categories = tuple(game.in_play(category) for category in CATEGORY_ORDER)
            facts = _with_hand((), game, seat, 0)
        elif before is None or not categories:
            continue
        else:
            facts = _observed(Case(categories, sizes, facts), event, seat, before, game)
        sizes = format_of(game).notebook_sizes(game)
        yield event, moment(game), Case(categories, sizes, facts)


def _observed(
    case: Case, event: ev.Event, seat: Seat, before: Game, game: Game
) -> tuple[Fact, ...]:
    """The facts after one event (the same tuple when it shows the seat nothing)."""
    facts = case.facts
    observed = _observe(event, seat, before, game)
    if not observed.moved and not observed.facts:
        return facts
    when = moment(game)
    if observed.moved:
        facts = carry(case, observed.moved, seat, when)
    facts = (*facts, *observed.facts)
    if any(seat in (m.giver, m.taker) for m in observed.moved):
        facts = _with_hand(facts, game, seat, when)
    return facts


def _observe(event: ev.Event, seat: Seat, before: Game, game: Game) -> Observed:
    """The core's observer of the event, or the game's edition's (none: nothing seen)."""
    observer: Observer | None = CORE.get(type(event))
    if observer is None:
        observer = observers_of(format_of(game).key).get(type(event))
    if observer is None:
        return NOTHING
    return observer(event, seat, before, game)


def _with_hand(facts: tuple[Fact, ...], game: Game, seat: Seat, when: int) -> tuple[Fact, ...]:
    """The facts with the seat's current hand as its one HAND fact (the last)."""
    others = tuple(f for f in facts if f.source.kind is not SourceKind.HAND)
    hand = game.players[seat].hand
    if not hand:
        return others
    source = Source(SourceKind.HAND, when, seat, hand)
    return (*others, Fact(source, tuple(holds(card, seat) for card in hand)))


# --- the forum's and the table's answers and accusations ----------------------------------


def answered(
    seat: Seat,
    when: int,
    refuter: Seat,
    cards: tuple[CardId, ...],
    shown: tuple[Seat, CardId, bool, bool] | None,
) -> Observed:
    """A suggestion answered with a card (`shown`: the suggester, the card, by the GM, by
    the GM's own order rather than the refuter's standing answer) or with none (`shown`
    None), as `seat` sees it."""
    if seat == refuter:
        return NOTHING  # their own hand says it
    if shown is None:
        lacked = Fact(
            Source(SourceKind.NOT_REFUTED, when, refuter, cards),
            tuple(lacks(card, refuter) for card in cards),
        )
        return Observed(facts=(lacked,))
    suggester, card, by_gm, in_order = shown
    if seat != suggester:
        refuted = Fact(Source(SourceKind.REFUTED, when, refuter, cards), (one_of(refuter, cards),))
        return Observed(facts=(refuted,))
    kind = SourceKind.SHOWN_BY_GM if by_gm else SourceKind.SHOWN
    facts = [Fact(Source(kind, when, refuter, (card,)), (holds(card, refuter),))]
    passed_over = cards[: cards.index(card)]
    if by_gm and in_order and passed_over:  # the GM's order: those named before are not there
        source = Source(SourceKind.GM_ORDER, when, refuter, (card,))  # the card it showed
        facts.append(Fact(source, tuple(lacks(c, refuter) for c in passed_over)))
    return Observed(facts=tuple(facts))


def wrong_accusation(seat: Seat, when: int, accuser: Seat, cards: tuple[CardId, ...]) -> Observed:
    """Only the accuser knows what they named."""
    if seat != accuser:
        return NOTHING
    source = Source(SourceKind.WRONG_ACCUSATION, when, accuser, cards)
    return Observed(facts=(Fact(source, (not_all(ENVELOPE, cards),)),))


def _forum_refuted(e: ev.SuggestionRefuted, seat: Seat, _: Game, game: Game) -> Observed:
    s = game.suggestion(e.suggestion)
    assert s is not None
    shown = (s.suggester, e.card, e.by_gm, not e.standing)
    return answered(seat, moment(game), s.target, s.cards, shown)


def _forum_not_refuted(e: ev.SuggestionNotRefuted, seat: Seat, _: Game, game: Game) -> Observed:
    s = game.suggestion(e.suggestion)
    assert s is not None
    return answered(seat, moment(game), s.target, s.cards, None)


def _forum_judged(e: ev.AccusationJudged, seat: Seat, _: Game, game: Game) -> Observed:
    if e.correct or e.seat != seat:
        return NOTHING
    accusation = next(a for a in reversed(game.accusations) if a.seat == seat)
    return wrong_accusation(seat, moment(game), seat, accusation.cards)


def _table_suggestion(game: Game, number: int) -> TableSuggestion:
    return next(s for s in format_of(game).table_suggestions(game) if s.number == number)


def _could_not_refute(e: ev.CouldNotRefute, seat: Seat, _: Game, game: Game) -> Observed:
    s = _table_suggestion(game, e.suggestion)
    return answered(seat, moment(game), e.seat, s.cards, None)


def _card_shown(e: ev.CardShown, seat: Seat, _: Game, game: Game) -> Observed:
    s = _table_suggestion(game, e.suggestion)
    shown = (s.suggester, e.card, e.by_gm, not e.standing)
    return answered(seat, moment(game), e.seat, s.cards, shown)


def _accused_at_table(e: ev.AccusedAtTable, seat: Seat, _: Game, game: Game) -> Observed:
    if e.correct:
        return NOTHING
    return wrong_accusation(seat, moment(game), e.seat, (e.suspect, e.weapon, e.place))


# The forum's and the table core's events; an edition's own are in engine/notebook/observers.py.
CORE: Mapping[type[ev.Event], Observer] = MappingProxyType(
    {
        ev.SuggestionRefuted: _forum_refuted,
        ev.SuggestionNotRefuted: _forum_not_refuted,
        ev.AccusationJudged: _forum_judged,
        ev.CouldNotRefute: _could_not_refute,
        ev.CardShown: _card_shown,
        ev.AccusedAtTable: _accused_at_table,
    }
)
