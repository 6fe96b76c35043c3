"""The Liars Edition's events (known by name with the engine's own to a registry of its
formats, engine/registry.py).

Private values (a truth card's identity until someone calls Liar!, a card shown or
passed or peeked at, a drawn investigation card) are in the events like the classic's
CardShown: the announcer sends them only to those who may see them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from engine.cards import CardId
from engine.events import Event
from engine.ids import Seat
from engine.liars.cards import Action
from engine.liars.state import Stage


@dataclass(frozen=True, kw_only=True)
class InvestigationDealt(Event):
    """At setup: one investigation card to each seat (private), the rest the draw pile."""

    held: tuple[str, ...]
    draw: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class InvestigationRead(Event):
    """The reader reads an action aloud; `card` (truth or lie) stays private. `by_gm`: the
    turn timer ran out with the card unplayed, and the GM read it for the reader."""

    turn: int
    seat: Seat
    action: Action
    card: str
    due: datetime  # the Liar! window closes
    by_gm: bool = False


@dataclass(frozen=True, kw_only=True)
class LiarCalled(Event):
    """Someone pressed Liar!: the card is turned over for everyone."""

    turn: int
    seat: Seat  # who pressed
    reader: Seat
    lie: bool
    due: datetime | None = None  # a lie: the liar's time to put a card face up


@dataclass(frozen=True, kw_only=True)
class TruthShown(Event):
    """A wrong call: the presser's random evidence card, to the reader only (None: the
    presser holds none)."""

    turn: int
    seat: Seat
    reader: Seat
    card: CardId | None


@dataclass(frozen=True, kw_only=True)
class CardExposed(Event):
    """A caught liar's card goes face up into the Interrogation Room (public)."""

    turn: int
    seat: Seat
    card: CardId
    by_gm: bool = False


@dataclass(frozen=True, kw_only=True)
class NoLiarCalled(Event):
    turn: int


@dataclass(frozen=True, kw_only=True)
class ActionBegun(Event):
    """The card's action happens (read unchallenged, or true); `stage` is what it asks now."""

    turn: int
    seat: Seat
    action: Action
    stage: Stage
    passers: tuple[Seat, ...] = ()
    due: datetime | None = None  # the passers' deadline


@dataclass(frozen=True, kw_only=True)
class InvestigationDrawn(Event):
    """The reader's new investigation card (private); the discard pile was reshuffled
    into the draw pile first when it had run out."""

    turn: int
    seat: Seat
    card: str
    reshuffled: tuple[str, ...] | None = None  # the new draw pile, when reshuffled


@dataclass(frozen=True, kw_only=True)
class PassChosen(Event):
    """One player's card on its way left (private to them)."""

    turn: int
    seat: Seat
    card: CardId
    by_gm: bool = False


@dataclass(frozen=True, kw_only=True)
class CardsPassed(Event):
    """Every chosen card reaches the player to the left: (from, to, card), each private."""

    turn: int
    moves: tuple[tuple[Seat, Seat, CardId], ...]


@dataclass(frozen=True, kw_only=True)
class Peeked(Event):
    """Two random evidence cards of `target`, seen by the reader only."""

    turn: int
    seat: Seat
    target: Seat
    cards: tuple[CardId, ...]


@dataclass(frozen=True, kw_only=True)
class MovedAnywhere(Event):
    """The reader uses "move to any room" (a TokenMoved or StayedToSuggest follows)."""

    turn: int
    seat: Seat
    room: str


@dataclass(frozen=True, kw_only=True)
class LiarsTimerRenewed(Event):
    """The window's, the liar's or the passers' time ran out while the bot was down: the
    same stage goes on until `due`."""

    turn: int
    stage: Stage
    due: datetime


LIARS_EVENTS: tuple[type[Event], ...] = (
    InvestigationDealt,
    InvestigationRead,
    LiarCalled,
    TruthShown,
    CardExposed,
    NoLiarCalled,
    ActionBegun,
    InvestigationDrawn,
    PassChosen,
    CardsPassed,
    Peeked,
    MovedAnywhere,
    LiarsTimerRenewed,
)
