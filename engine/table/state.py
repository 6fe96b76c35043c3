"""The table: tokens and weapons on the board, the turn and its step, and the part of
the state that belongs to the game's edition (`Table.edition`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum
from types import MappingProxyType
from typing import Any, Self

from engine.board.model import Place
from engine.cards import CardId
from engine.ids import Seat


class Step(StrEnum):
    """Where the current turn is."""

    ROLL = "roll"  # begun: roll, take a passage, stay (if moved in), or accuse
    MOVE = "move"  # rolled: move to a reachable place
    MOVED = "moved"  # moved, or stayed: suggest (just entered a room), accuse, end the turn
    REFUTING = "refuting"  # a suggestion waits for a refuter's card
    SUGGESTED = "suggested"  # the suggestion is answered: accuse or end the turn


# The table's own clocks a delivery starts (engine/clocks.py): the turn's (its ref is the
# turn) and the asked refuter's (its ref is the suggestion's number).
TURN_CLOCK = "turn"
REFUTE_CLOCK = "refute"


class TurnEnd(StrEnum):
    """Why a turn ended."""

    ENDED = "ended"  # the player ended it
    TIMED_OUT = "timed_out"  # the turn timer ran out
    ACCUSED = "accused"  # a wrong accusation
    LEFT = "left"  # the player left or was removed


class MoveKind(StrEnum):
    """How a token came to its place."""

    WALK = "walk"
    PASSAGE = "passage"
    SUGGESTION = "suggestion"  # named in someone's suggestion
    OUT = "out"  # a wrong accuser leaves the corridor for the nearest room


@dataclass(frozen=True)
class TableSeat:
    """One seat's table facts (its suspect is the player's role)."""

    moved_in: bool = False  # moved into a room by another's suggestion since its last turn
    suggested_in: str | None = None  # where it last suggested (must leave before again)
    missed: int = 0  # turns timed out in a row
    away: bool = False  # turns skipped at once, refutations by the GM, until back


@dataclass(frozen=True)
class TableSuggestion:
    """A suggestion at the table; refutation goes left from the suggester."""

    number: int
    turn: int
    suggester: Seat
    suspect: CardId
    weapon: CardId
    room: str
    made_at: datetime
    passed: tuple[Seat, ...] = ()  # could not refute, in order
    refuter: Seat | None = None  # asked, then the one who showed
    due: datetime | None = None  # the refuter's deadline
    card: CardId | None = None  # private: the suggester's only
    by_gm: bool = False
    answered: bool = False

    @property
    def cards(self) -> tuple[CardId, CardId, CardId]:
        return (self.suspect, self.weapon, self.room)


@dataclass(frozen=True)
class EditionState:
    """Base of an edition's own part of the table (the 2023 edition's cards in rooms, the
    Liars Edition's investigation cards). Stored with its class name (`kind`), so the
    snapshot codec reads it back as the right subclass."""

    @classmethod
    def kinds(cls) -> dict[str, type[EditionState]]:
        """Every subclass by name (the editions' states, once their packages are loaded)."""
        found: dict[str, type[EditionState]] = {}
        todo = list(cls.__subclasses__())
        while todo:
            kind = todo.pop()
            found[kind.__name__] = kind
            todo.extend(kind.__subclasses__())
        return found

    def after_pause(self, by: timedelta) -> Self:
        """The edition's own timers moved by a pause (none by default)."""
        return self

    def clock_started(self, clock: str, due: datetime) -> Self:
        """One of the edition's own clocks (see `Edition.clock`) now runs until `due`."""
        return self


# Stored tables before `edition` held one slot per edition; read them into `edition`.
_OLD_EDITION_SLOTS = MappingProxyType({"y2023": "Edition2023", "liars": "Liars"})


@dataclass(frozen=True)
class Table:
    """The board position and the turn; `current` is a seat, play goes up the seats."""

    board: str
    tokens: tuple[tuple[CardId, Place], ...]  # every suspect of the board, played or not
    weapons: tuple[tuple[CardId, str], ...]  # weapon -> room
    seats: tuple[TableSeat, ...]
    turn: int = 0
    current: Seat = 0
    step: Step = Step.ROLL
    dice: tuple[int, ...] = ()
    entered: bool = False  # the token entered (or stayed in) a room this turn
    due: datetime | None = None  # the turn's deadline; None while everyone is away
    suggestions: tuple[TableSuggestion, ...] = ()
    edition: EditionState | None = None  # the edition's own part (None: the classic)
    # The clocks of this turn whose message was reported delivered (ClockSeen): (clock, ref).
    clocks_seen: tuple[tuple[str, int], ...] = ()

    @classmethod
    def upgrade(cls, data: dict[str, Any]) -> dict[str, Any]:
        """A stored table of an older shape, as this one reads it (see engine/codec.py):
        the former `y2023` and `liars` slots become `edition`."""
        data = dict(data)
        for slot, kind in _OLD_EDITION_SLOTS.items():
            old = data.pop(slot, None)
            if old is not None:
                data["edition"] = {**old, "kind": kind}
        return data

    def place_of(self, suspect: CardId) -> Place:
        for token, place in self.tokens:
            if token == suspect:
                return place
        raise KeyError(suspect)

    def room_of_weapon(self, weapon: CardId) -> str:
        for known, room in self.weapons:
            if known == weapon:
                return room
        raise KeyError(weapon)

    @property
    def pending(self) -> TableSuggestion | None:
        """This turn's suggestion while it waits for a card."""
        if self.step is Step.REFUTING and self.suggestions:
            return self.suggestions[-1]
        return None

    def occupied(self, but: CardId | None = None) -> frozenset[tuple[int, int]]:
        """Corridor squares held by tokens (other than `but`'s)."""
        return frozenset(
            place for token, place in self.tokens if token != but and isinstance(place, tuple)
        )
