"""What the 2023 edition's own events show each player's notebook (bot/editions/y2023
tells who sees what): a card face down in a room, seen by whoever entered it (theirs
alone); a card a clue card has its holder reveal to everyone, or that nobody holds; the
random card a clue card has the left neighbour show the reader (the reader's alone); and
the face-up cards of games stored before the deal followed the rulebook."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from engine.cards import CATEGORY_ORDER
from engine.events import Event
from engine.format import moment
from engine.ids import Seat
from engine.notebook.facts import FACE_UP, ROOMS, Fact, Owner, Source, SourceKind, holds, lacks
from engine.notebook.observed import NOTHING, Observed, Observer
from engine.state import Game
from engine.y2023 import events as yev
from engine.y2023.state import y2023_of


def edition_set_up(e: yev.EditionSetUp, seat: Seat, before: Game, after: Game) -> Observed:
    """Cards face up for everyone (only in games stored before the deal followed the
    rulebook); which cards lie face down in rooms is secret."""
    if not e.face_up:
        return NOTHING
    source = Source(SourceKind.FACE_UP, moment(after), None, e.face_up)
    return Observed(facts=(Fact(source, tuple(holds(card, FACE_UP) for card in e.face_up)),))


def placed_card_seen(e: yev.PlacedCardSeen, seat: Seat, before: Game, after: Game) -> Observed:
    if seat != e.seat:
        return NOTHING
    source = Source(SourceKind.SEEN_IN_ROOM, moment(after), None, (e.card,))
    return Observed(facts=(Fact(source, (holds(e.card, ROOMS),)),))


def clue_revealed(e: yev.ClueRevealed, seat: Seat, before: Game, after: Game) -> Observed:
    """Public: its holder showed it, or no player holds it."""
    if seat == e.seat:
        return NOTHING
    source = Source(SourceKind.REVEALED, moment(after), e.seat, (e.card,))
    if e.seat is not None:
        return Observed(facts=(Fact(source, (holds(e.card, e.seat),)),))
    nobody = tuple(lacks(e.card, p.seat) for p in after.players if p.seat != seat)
    return Observed(facts=(Fact(source, nobody),))


def clue_card_shown(e: yev.ClueCardShown, seat: Seat, before: Game, after: Game) -> Observed:
    if seat != e.to or e.card is None:
        return NOTHING
    source = Source(SourceKind.CLUE_SHOWN, moment(after), e.seat, (e.card,))
    return Observed(facts=(Fact(source, (holds(e.card, e.seat),)),))


def y2023_sizes(game: Game) -> tuple[tuple[Owner, int], ...]:
    """Each hand, and the cards neither dealt nor in the envelope: face down in rooms (two
    players; counted from the deal, so also before the table is set up) or face up."""
    edition = y2023_of(game.table)
    sizes = [(p.seat, len(p.hand)) for p in game.players]
    face_up = len(edition.face_up) if edition is not None else 0
    placed = len(game.deck) - len(CATEGORY_ORDER) - sum(n for _, n in sizes) - face_up
    if placed:
        sizes.append((ROOMS, placed))
    if face_up:
        sizes.append((FACE_UP, face_up))
    return tuple(sizes)


Y2023_OBSERVERS: Mapping[type[Event], Observer] = MappingProxyType(
    {
        yev.EditionSetUp: edition_set_up,
        yev.PlacedCardSeen: placed_card_seen,
        yev.ClueRevealed: clue_revealed,
        yev.ClueCardShown: clue_card_shown,
    }
)
