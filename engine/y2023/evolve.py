"""Applying the 2023 edition's events to the table. No rule is checked here."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from engine.events import Event
from engine.frozen import replace
from engine.state import Game
from engine.y2023 import events as ev
from engine.y2023.state import Edition2023, y2023_of


def _edition(state: Game) -> Edition2023:
    edition = y2023_of(state.table)
    assert edition is not None
    return edition


def _with(state: Game, **changes: Any) -> Game:
    assert state.table is not None
    edition = replace(_edition(state), **changes)
    return replace(state, table=replace(state.table, edition=edition))


def _seen(state: Game, seat: int, card: str) -> Game:
    edition = _edition(state)
    if (seat, card) in edition.seen:
        return state
    return _with(state, seen=(*edition.seen, (seat, card)))


def edition_set_up(state: Game, e: ev.EditionSetUp) -> Game:
    assert state.table is not None
    edition = Edition2023(placed=e.placed, face_up=e.face_up, clues=e.clues)
    return replace(state, table=replace(state.table, edition=edition))


def placed_card_seen(state: Game, e: ev.PlacedCardSeen) -> Game:
    return _seen(state, e.seat, e.card)


def clue_card_drawn(state: Game, e: ev.ClueCardDrawn) -> Game:
    """Read, done, and put at the bottom of the deck."""
    clues = _edition(state).clues
    return _with(state, clues=(*clues[1:], clues[0]), clue_turn=e.turn)


def clue_revealed(state: Game, e: ev.ClueRevealed) -> Game:
    if e.seat is None:
        return state
    return _with(state, revealed=(*_edition(state).revealed, e.card))


def clue_card_shown(state: Game, e: ev.ClueCardShown) -> Game:
    return state if e.card is None else _seen(state, e.to, e.card)


Y2023_FOLDS: Mapping[type[Event], Callable[[Any, Any], Game]] = MappingProxyType(
    {
        ev.EditionSetUp: edition_set_up,
        ev.PlacedCardSeen: placed_card_seen,
        ev.ClueCardDrawn: clue_card_drawn,
        ev.ClueRevealed: clue_revealed,
        ev.ClueCardShown: clue_card_shown,
    }
)
