"""The 2023 edition's part of the table: cards face down in rooms (the two-player game),
the clue deck, and which cards each seat has been shown outside suggestions."""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import CardId
from engine.ids import Seat
from engine.table.state import EditionState, Table


@dataclass(frozen=True)
class Edition2023(EditionState):
    """Secret except `face_up`, `revealed` and the clue deck's use; `seen` is per seat."""

    placed: tuple[tuple[str, CardId], ...]  # room -> the card face down there (two players)
    face_up: tuple[CardId, ...] = ()  # seen by all: only in games stored before the deal
    # followed the rulebook (two players were dealt six each, two cards face up)
    clues: tuple[str, ...] = ()  # the clue deck, top first
    revealed: tuple[CardId, ...] = ()  # shown to everyone by clue cards
    seen: tuple[tuple[Seat, CardId], ...] = ()  # shown privately: placed cards, clue cards
    clue_turn: int = 0  # the last turn a clue card was drawn in

    def card_in(self, room: str) -> CardId | None:
        """The card face down in a room, if any."""
        return next((card for known, card in self.placed if known == room), None)

    def has_seen(self, seat: Seat, card: CardId) -> bool:
        return (seat, card) in self.seen


def y2023_of(table: Table | None) -> Edition2023 | None:
    """The 2023 edition's part of a table (None in any other game)."""
    part = table.edition if table is not None else None
    return part if isinstance(part, Edition2023) else None


def y2023_part(table: Table | None) -> Edition2023:
    """The 2023 edition's part of a table that has one."""
    part = y2023_of(table)
    assert part is not None, "not a 2023-edition table"
    return part
