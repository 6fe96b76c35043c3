"""The detective's notebook as the picture shows it: one player's grid of cards (rows, in
sections by category) against owners (columns: the players, the envelope, perhaps the cards
lying face up). Already in the reader's language: every word here comes from the caller,
and `bot/render/notebook_picture.py` only lays it out."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Mark(StrEnum):
    """What one cell says: proven (HAS, LACKS), unknown (MAYBE) or, on an unknown cell, the
    player's own pencil mark (OWN_*)."""

    HAS = "has"  # proven to hold the card (the player's own hand included)
    LACKS = "lacks"  # proven not to hold it
    MAYBE = "maybe"  # unknown
    OWN_YES = "own_yes"  # unknown; the player marked it held
    OWN_NO = "own_no"  # unknown; the player marked it not held
    OWN_MAYBE = "own_maybe"  # unknown; the player marked it as a suspicion

    @property
    def proven(self) -> bool:
        return self in (Mark.HAS, Mark.LACKS)

    @property
    def own(self) -> bool:
        return self in (Mark.OWN_YES, Mark.OWN_NO, Mark.OWN_MAYBE)


class Flag(StrEnum):
    """What else the legend may explain besides the marks."""

    OWN_HAND = "own_hand"  # a card in the player's hand
    SEEN = "seen"  # a card shown to the player
    SOLVED = "solved"  # a row whose card is surely in the envelope
    ENVELOPE = "envelope"  # the envelope's column


LegendKey = Mark | Flag


@dataclass(frozen=True)
class Cell:
    """One card against one owner. `percent` (0-100, the odds) shows only while the cell is
    not proven; `note` is the player's own short note."""

    mark: Mark = Mark.MAYBE
    percent: int | None = None
    note: str | None = None
    own_hand: bool = False
    seen: bool = False

    def __post_init__(self) -> None:
        if self.percent is not None and not 0 <= self.percent <= 100:
            raise ValueError(f"percent {self.percent} is not within 0-100")

    @property
    def shown_percent(self) -> int | None:
        """The odds to print: none on a proven cell."""
        return None if self.mark.proven else self.percent


@dataclass(frozen=True)
class Row:
    """One card: its name and one cell per column; `solved` when the envelope surely holds
    it."""

    label: str
    cells: tuple[Cell, ...]
    solved: bool = False


@dataclass(frozen=True)
class Section:
    """One category of cards (suspects, weapons, rooms) under its title."""

    title: str
    rows: tuple[Row, ...]


@dataclass(frozen=True)
class Grid:
    """A whole notebook page: `columns` are the owners' names, `envelope_column` the index of
    the envelope among them; `legend` explains the marks in the reader's words; `footer` is
    an optional last line (e.g. how the odds were counted)."""

    title: str
    columns: tuple[str, ...]
    envelope_column: int
    sections: tuple[Section, ...]
    legend: tuple[tuple[LegendKey, str], ...] = ()
    footer: str | None = None

    def __post_init__(self) -> None:
        if not 0 <= self.envelope_column < len(self.columns):
            raise ValueError(f"envelope column {self.envelope_column} is not a column")
        for row in self.rows:
            if len(row.cells) != len(self.columns):
                raise ValueError(
                    f"row {row.label!r} has {len(row.cells)} cells for {len(self.columns)} columns"
                )

    @property
    def rows(self) -> tuple[Row, ...]:
        """Every row, section after section (the order of `cell_boxes`)."""
        return tuple(row for section in self.sections for row in section.rows)
