"""Events: what happened, in the past tense. The game's record; replaying them rebuilds it.
The forum's and the table's events are here; an edition's own live in its package, and a
registry (engine/registry.py) knows them all by name."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from engine.board.model import Place
from engine.cards import CardId, Pack
from engine.formats import FormatBase
from engine.ids import Seat, UserId
from engine.settings import Settings
from engine.table.state import MoveKind, TurnEnd


@dataclass(frozen=True, kw_only=True)
class Event:
    """Base: every event carries the moment it happened."""

    at: datetime


@dataclass(frozen=True, kw_only=True)
class LobbyOpened(Event):
    seed: int
    settings: Settings
    format: FormatBase  # the format they name (not stored: engine/codec.py)
    creator: UserId
    pack: Pack | None = None


@dataclass(frozen=True, kw_only=True)
class PlayerJoined(Event):
    user: UserId
    role: CardId | None = None


@dataclass(frozen=True, kw_only=True)
class PlayerLeftLobby(Event):
    user: UserId


@dataclass(frozen=True, kw_only=True)
class RoleChosen(Event):
    """A lobby member chose (or changed) their character."""

    user: UserId
    role: CardId


@dataclass(frozen=True, kw_only=True)
class SettingsChanged(Event):
    """In the lobby the settings change at once; in a game they wait for the next day."""

    settings: Settings
    format: FormatBase  # the format they name (not stored: engine/codec.py)
    changed: tuple[str, ...]


@dataclass(frozen=True)
class Deal:
    """One seat's share of the deal."""

    user: UserId
    role: CardId
    hand: tuple[CardId, ...]


@dataclass(frozen=True, kw_only=True)
class GameStarted(Event):
    deck: tuple[CardId, ...]
    envelope: tuple[CardId, CardId, CardId]
    seats: tuple[Deal, ...]


@dataclass(frozen=True, kw_only=True)
class DayOpened(Event):
    day: int
    ends_at: datetime


@dataclass(frozen=True, kw_only=True)
class DayEnded(Event):
    day: int


@dataclass(frozen=True, kw_only=True)
class DayExtended(Event):
    day: int
    ends_at: datetime


@dataclass(frozen=True, kw_only=True)
class SuggestionMade(Event):
    suggestion: int
    day: int
    number: int
    suggester: Seat
    target: Seat
    suspect: CardId
    weapon: CardId
    place: CardId
    answer_due: datetime


@dataclass(frozen=True, kw_only=True)
class SuggestionRefuted(Event):
    """The card is private: only the suggester may learn it."""

    suggestion: int
    card: CardId
    by_gm: bool = False
    penalized: bool = False
    standing: bool = False  # the GM showed the target's standing answer, not its own order


@dataclass(frozen=True, kw_only=True)
class SuggestionNotRefuted(Event):
    suggestion: int
    by_gm: bool = False
    automatic: bool = False
    penalized: bool = False


@dataclass(frozen=True, kw_only=True)
class SuggestionVoided(Event):
    suggestion: int
    refunded: bool


@dataclass(frozen=True, kw_only=True)
class AccusationMade(Event):
    """The cards are private until the game ends."""

    seat: Seat
    window: int
    suspect: CardId
    weapon: CardId
    place: CardId


@dataclass(frozen=True, kw_only=True)
class WindowOpened(Event):
    window: int
    closes_at: datetime


@dataclass(frozen=True, kw_only=True)
class AccusationJudged(Event):
    seat: Seat
    correct: bool


@dataclass(frozen=True, kw_only=True)
class WindowClosed(Event):
    window: int


@dataclass(frozen=True, kw_only=True)
class PlayerLeft(Event):
    seat: Seat
    removed: bool = False


@dataclass(frozen=True, kw_only=True)
class SeatReplaced(Event):
    seat: Seat
    old_user: UserId
    new_user: UserId


@dataclass(frozen=True, kw_only=True)
class GamePaused(Event):
    pass


@dataclass(frozen=True, kw_only=True)
class GameResumed(Event):
    paused_at: datetime


@dataclass(frozen=True, kw_only=True)
class ReminderSent(Event):
    day: int


class EndReason(StrEnum):
    """Why a game ended (the catalog's end texts are keyed by it)."""

    WON = "won"  # a right accusation
    NO_WINNER = "no_winner"  # nobody is left who may accuse
    ENDED = "ended"  # by an admin


@dataclass(frozen=True, kw_only=True)
class GameEnded(Event):
    reason: EndReason
    winner: Seat | None = None


# --- at the table (every edition's board, turns and suggestions) ---------------------


@dataclass(frozen=True, kw_only=True)
class BoardSetUp(Event):
    """Every suspect token on its start square, each weapon in a different room."""

    board: str
    tokens: tuple[tuple[CardId, Place], ...]
    weapons: tuple[tuple[CardId, str], ...]


@dataclass(frozen=True, kw_only=True)
class TurnStarted(Event):
    turn: int
    seat: Seat
    due: datetime | None  # None: everyone left to play is away, the game waits for one


@dataclass(frozen=True, kw_only=True)
class TurnSkipped(Event):
    """An away player's turn, skipped at once."""

    turn: int
    seat: Seat


@dataclass(frozen=True, kw_only=True)
class DiceRolled(Event):
    turn: int
    seat: Seat
    dice: tuple[int, ...]


@dataclass(frozen=True, kw_only=True)
class TokenMoved(Event):
    turn: int
    suspect: CardId
    to: Place
    kind: MoveKind


@dataclass(frozen=True, kw_only=True)
class StayedToSuggest(Event):
    """A player moved in by a suggestion stays there to suggest."""

    turn: int
    seat: Seat


@dataclass(frozen=True, kw_only=True)
class WeaponMoved(Event):
    turn: int
    weapon: CardId
    room: str


@dataclass(frozen=True, kw_only=True)
class TableSuggestionMade(Event):
    """Named at the table; the suggested suspect and weapon follow into the room."""

    turn: int
    suggestion: int
    suggester: Seat
    suspect: CardId
    weapon: CardId
    room: str


@dataclass(frozen=True, kw_only=True)
class CouldNotRefute(Event):
    suggestion: int
    seat: Seat


@dataclass(frozen=True, kw_only=True)
class RefuterAsked(Event):
    """The first player left of the suggester who holds a named card chooses one."""

    suggestion: int
    seat: Seat
    due: datetime


@dataclass(frozen=True, kw_only=True)
class CardShown(Event):
    """The card is private: only the suggester may learn it."""

    suggestion: int
    seat: Seat
    card: CardId
    by_gm: bool = False
    standing: bool = False  # the GM showed the refuter's standing answer


@dataclass(frozen=True, kw_only=True)
class NobodyRefuted(Event):
    suggestion: int


@dataclass(frozen=True, kw_only=True)
class AccusedAtTable(Event):
    """An accusation on one's turn, checked at once; the cards stay private until the end."""

    turn: int
    seat: Seat
    suspect: CardId
    weapon: CardId
    place: CardId
    correct: bool


@dataclass(frozen=True, kw_only=True)
class TurnEnded(Event):
    turn: int
    seat: Seat
    reason: TurnEnd


@dataclass(frozen=True, kw_only=True)
class PlayerAway(Event):
    """Missed `away_after` turns in a row, or away by their word till `until`: turns skipped."""

    seat: Seat
    until: datetime | None = None


@dataclass(frozen=True, kw_only=True)
class PlayerReturned(Event):
    seat: Seat
    came_back: bool = False  # by their /back for every game (ComeBack): told to them too


@dataclass(frozen=True, kw_only=True)
class TurnTimerRenewed(Event):
    """The turn's time ran out while the bot was down: the player gets a fresh timer."""

    turn: int
    seat: Seat
    due: datetime


@dataclass(frozen=True, kw_only=True)
class RefuteTimerRenewed(Event):
    """The refuter's time ran out while the bot was down: they get a fresh timer."""

    suggestion: int
    seat: Seat
    due: datetime


@dataclass(frozen=True, kw_only=True)
class ClockStarted(Event):
    clock: str  # a clock whose message was delivered (ClockSeen, engine/clocks.py)
    ref: int  # its turn, or its suggestion's number
    due: datetime  # it runs until then (never earlier than before); marked seen


@dataclass(frozen=True, kw_only=True)
class WentAway(Event):
    """A player said they would be away until `until` (`days`: the game days it counts
    against their allowance): the GM answers for them at once, with no penalty."""

    seat: Seat
    until: datetime
    days: int


@dataclass(frozen=True, kw_only=True)
class CameBack(Event):
    """An away player is back before their time was up; `refund`: the whole game days
    they did not use, given back to their allowance."""

    seat: Seat
    refund: int = 0


@dataclass(frozen=True, kw_only=True)
class StandingAnswerSet(Event):
    """What the GM shows for this seat when it answers for them: the first of `order`
    that was named (empty: the GM's own order). Told to the player alone."""

    seat: Seat
    order: tuple[CardId, ...]


@dataclass(frozen=True, kw_only=True)
class PlayerIdle(Event):
    """A player made no move for a whole day: `days` such days in a row."""

    seat: Seat
    days: int


# Every event of this module (the forum's and the table's; an edition brings its own).
_OWN = tuple(k for k in list(globals().values()) if isinstance(k, type) and issubclass(k, Event))
CORE_EVENTS: tuple[type[Event], ...] = tuple(k for k in _OWN if k is not Event)
