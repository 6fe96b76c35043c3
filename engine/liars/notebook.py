"""What the Liars Edition's own events show each player's notebook (bot/editions/liars
tells who sees what): a card put face up (public, and it leaves the liar's hand), the
random card a wrong caller shows the reader (the reader's alone), the two cards a peek
shows (the reader's alone), and the pass to the left (each player sees the card they gave
and the one they got; the other cards moved unseen). Leaving changes no hand."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from types import MappingProxyType

from engine.events import Event
from engine.format import moment
from engine.ids import Seat
from engine.liars import events as lev
from engine.liars.state import liars_of
from engine.notebook.facts import FACE_UP, Fact, Owner, Source, SourceKind, holds
from engine.notebook.observed import NOTHING, Moved, Observed, Observer
from engine.state import Game


def card_exposed(e: lev.CardExposed, seat: Seat, before: Game, after: Game) -> Observed:
    """Everyone sees the card go from the liar's hand to the face-up cards."""
    source = Source(SourceKind.FACE_UP, moment(after), e.seat, (e.card,))
    fact = Fact(source, (holds(e.card, FACE_UP),))
    return Observed(moved=(Moved(e.seat, FACE_UP, e.card),), facts=(fact,))


def truth_shown(e: lev.TruthShown, seat: Seat, before: Game, after: Game) -> Observed:
    """The wrong caller's random card, seen by the reader alone."""
    if seat != e.reader or e.card is None:
        return NOTHING
    source = Source(SourceKind.TRUTH_SHOWN, moment(after), e.seat, (e.card,))
    return Observed(facts=(Fact(source, (holds(e.card, e.seat),)),))


def peeked(e: lev.Peeked, seat: Seat, before: Game, after: Game) -> Observed:
    """The target's random cards, seen by the reader alone."""
    if seat != e.seat or seat == e.target:
        return NOTHING
    source = Source(SourceKind.PEEKED, moment(after), e.target, e.cards)
    return Observed(facts=(Fact(source, tuple(holds(card, e.target) for card in e.cards)),))


def cards_passed(e: lev.CardsPassed, seat: Seat, before: Game, after: Game) -> Observed:
    """Every passer's card reaches their left neighbour at once; a seat knows the card it
    gave and the one it got, the others moved unseen."""
    when = moment(after)
    moved = tuple(
        Moved(giver, to, card if seat in (giver, to) else None) for giver, to, card in e.moves
    )
    gave = [
        Fact(Source(SourceKind.PASSED_BY_YOU, when, to, (card,)), (holds(card, to),))
        for giver, to, card in e.moves
        if giver == seat
    ]
    got = [
        Fact(Source(SourceKind.PASSED_TO_YOU, when, giver, (card,)), (holds(card, seat),))
        for giver, to, card in e.moves
        if to == seat
    ]
    return Observed(moved=moved, facts=(*gave, *got))


def liars_sizes(game: Game) -> tuple[tuple[Owner, int], ...]:
    """Each hand (a card chosen to pass still counts as its giver's until all are given),
    and the face-up cards."""
    liars = liars_of(game.table)
    giving = Counter(seat for seat, _ in liars.passes) if liars is not None else Counter[int]()
    sizes = [(p.seat, len(p.hand) + giving[p.seat]) for p in game.players]
    face_up = len(liars.face_up) if liars is not None else 0
    return (*sizes, (FACE_UP, face_up)) if face_up else tuple(sizes)


LIARS_OBSERVERS: Mapping[type[Event], Observer] = MappingProxyType(
    {
        lev.CardExposed: card_exposed,
        lev.TruthShown: truth_shown,
        lev.Peeked: peeked,
        lev.CardsPassed: cards_passed,
    }
)
