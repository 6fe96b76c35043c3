"""The 2023 edition's events (known by name with the engine's own to a registry of its
formats, engine/registry.py)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import CardId
from engine.events import Event
from engine.ids import Seat


@dataclass(frozen=True, kw_only=True)
class EditionSetUp(Event):
    """The 2023 edition's table: cards face down in rooms (secret; four in the two-player
    game, none with more), the clue deck's order (top first), and the rolls for the first
    turn. `face_up` is empty: only games stored before the deal followed the rulebook had
    cards face up."""

    placed: tuple[tuple[str, CardId], ...]  # room -> card placed face down there
    face_up: tuple[CardId, ...]
    clues: tuple[str, ...]
    first_rolls: tuple[tuple[Seat, int], ...]  # in rolling order; ties roll again


@dataclass(frozen=True, kw_only=True)
class PlacedCardSeen(Event):
    """A player entered a room holding a face-down card and looked at it (theirs only)."""

    turn: int
    seat: Seat
    room: str
    card: CardId


@dataclass(frozen=True, kw_only=True)
class ClueCardDrawn(Event):
    """A magnifying glass was rolled: the top clue card is read aloud, then goes under."""

    turn: int
    seat: Seat
    clue: str


@dataclass(frozen=True, kw_only=True)
class ClueRevealed(Event):
    """The holder of the clue card's card shows it to everyone (None: nobody holds it)."""

    clue: str
    card: CardId
    seat: Seat | None


@dataclass(frozen=True, kw_only=True)
class ClueCardShown(Event):
    """A card shown privately to the reader because of a clue card (None: none to show)."""

    clue: str
    seat: Seat
    to: Seat
    card: CardId | None


Y2023_EVENTS: tuple[type[Event], ...] = (
    EditionSetUp,
    PlacedCardSeen,
    ClueCardDrawn,
    ClueRevealed,
    ClueCardShown,
)
