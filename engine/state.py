"""The game state: frozen values, plus the questions the rules ask of them."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum

from engine.cards import CardId, Category, Pack
from engine.computer import detective_level
from engine.events import EndReason, Event
from engine.formats import FormatBase
from engine.ids import Seat, UserId
from engine.settings import Settings
from engine.table.state import Table


class Phase(StrEnum):
    LOBBY = "lobby"
    RUNNING = "running"
    ENDED = "ended"


class Answer(StrEnum):
    PENDING = "pending"
    REFUTED = "refuted"
    NOT_REFUTED = "not_refuted"
    VOIDED = "voided"


@dataclass(frozen=True)
class LobbyEntry:
    user: UserId
    role: CardId | None = None


@dataclass(frozen=True)
class Player:
    """A seat at the table; `user` changes when an admin replaces the person."""

    seat: Seat
    user: UserId
    role: CardId
    hand: tuple[CardId, ...]
    active: bool = True
    removed: bool = False
    accused: bool = False
    eliminated: bool = False
    pending_penalty: int = 0
    penalty_today: int = 0
    away_until: datetime | None = None  # said they would be away until then
    away_from: datetime | None = None  # ... from then
    away_days: int = 0  # game days of away taken (engine/presence.py)
    standing: tuple[CardId, ...] = ()  # their standing answer: the GM shows the first named
    idle_days: int = 0  # whole days in a row with no move of theirs
    moved_day: int = 0  # the last day they made a move of their own

    def away_at(self, now: datetime) -> bool:
        """Away by their own word at `now` (a table's missed turns are the table's)."""
        return self.away_until is not None and now < self.away_until


@dataclass(frozen=True)
class Suggestion:
    id: int
    day: int
    number: int
    suggester: Seat
    target: Seat
    suspect: CardId
    weapon: CardId
    place: CardId
    made_at: datetime
    answer_due: datetime
    answer: Answer = Answer.PENDING
    card: CardId | None = None
    by_gm: bool = False
    penalized: bool = False  # answered by the GM with the penalty
    refunded: bool = False

    @property
    def cards(self) -> tuple[CardId, CardId, CardId]:
        return (self.suspect, self.weapon, self.place)


@dataclass(frozen=True)
class Accusation:
    seat: Seat
    window: int
    suspect: CardId
    weapon: CardId
    place: CardId
    at: datetime
    correct: bool | None = None

    @property
    def cards(self) -> tuple[CardId, CardId, CardId]:
        return (self.suspect, self.weapon, self.place)


@dataclass(frozen=True)
class Window:
    number: int
    opened_at: datetime
    closes_at: datetime
    open: bool = True


@dataclass(frozen=True)
class Game:
    """Everything the rules need to decide the next command."""

    seed: int
    settings: Settings
    creator: UserId
    created_at: datetime
    # The format its settings name (the forum, a table edition), found by the registry
    # that opened or read it; never stored (engine/codec.py reads it from the settings).
    format: FormatBase = field(kw_only=True)
    phase: Phase = Phase.LOBBY
    lobby: tuple[LobbyEntry, ...] = ()
    players: tuple[Player, ...] = ()
    deck: tuple[CardId, ...] = ()
    envelope: tuple[CardId, CardId, CardId] | None = None
    day: int = 0
    day_open: bool = False
    day_opened_at: datetime | None = None
    day_ends_at: datetime | None = None
    today_from: int = 0  # index in `suggestions` of the current day's first one
    suggestions: tuple[Suggestion, ...] = ()
    accusations: tuple[Accusation, ...] = ()
    window: Window | None = None
    paused_at: datetime | None = None
    pending_settings: Settings | None = None
    reminded_day: int = 0
    winner: Seat | None = None
    end_reason: EndReason | None = None
    ended_at: datetime | None = None
    custom_pack: Pack | None = None
    table: Table | None = None  # the classic format's board and turn
    changed_at: datetime | None = None  # the moment of the latest event (detectives wait on it)
    detectives_seated: int = 0  # computer detectives ever seated, in the lobby or a game
    computers_played: bool = False  # a computer detective held a seat in the game
    turn_log: tuple[Event, ...] = ()  # at the table: the current turn's events, from its start

    # --- cards -------------------------------------------------------------
    @property
    def pack(self) -> Pack:
        """The cards it plays with: its edition's own, or those its settings name."""
        return self.format.spec.pack_of(self.settings, self.custom_pack)

    @property
    def player_range(self) -> tuple[int, int]:
        """How many may play (engine/formats.py `FormatSpec.player_range`)."""
        return self.format.spec.player_range(self.settings)

    @property
    def roles_chosen(self) -> bool:
        """Players choose their suspect when joining (the setting, or the format's rule)."""
        return self.format.spec.chooses_roles(self.settings)

    def in_play(self, category: Category) -> tuple[CardId, ...]:
        """Cards of one category in play, in pack order."""
        deck = set(self.deck)
        return tuple(c for c in self.pack.cards_of(category) if c in deck)

    # --- players -----------------------------------------------------------
    def player_of(self, user: UserId) -> Player | None:
        """The seat a person holds in this game, if any."""
        for player in self.players:
            if player.user == user:
                return player
        return None

    def in_lobby(self, user: UserId) -> bool:
        return any(entry.user == user for entry in self.lobby)

    @property
    def lobby_host(self) -> UserId | None:
        """Who runs the lobby: its creator while in it, else the person who has waited
        longest (never a computer detective: None when only detectives are left)."""
        if self.in_lobby(self.creator):
            return self.creator
        return next((e.user for e in self.lobby if detective_level(e.user) is None), None)

    def can_accuse(self, player: Player) -> bool:
        return player.active and not player.accused

    def anyone_can_accuse(self) -> bool:
        return any(self.can_accuse(p) for p in self.players)

    # --- today's suggestions -----------------------------------------------
    def today(self) -> tuple[Suggestion, ...]:
        return self.suggestions[self.today_from :]

    def made_today(self, seat: Seat) -> int:
        """Suggestions a seat made today, voided ones included (they keep their number)."""
        return sum(1 for s in self.today() if s.suggester == seat)

    def counted_today(self, seat: Seat) -> int:
        """Suggestions that count against today's quota (refunded voids excluded)."""
        return sum(1 for s in self.today() if s.suggester == seat and not s.refunded)

    def quota_today(self, player: Player) -> int:
        return max(0, self.settings.suggestions_per_day - player.penalty_today)

    def quota_left(self, player: Player) -> int:
        """Suggestions the player may still make today (never below zero)."""
        if not self.day_open or not self.may_suggest(player):
            return 0
        return max(0, self.quota_today(player) - self.counted_today(player.seat))

    def may_suggest(self, player: Player) -> bool:
        """Players who left cannot suggest; wrong accusers only if the setting allows."""
        return player.active and (not player.eliminated or self.settings.eliminated_may_suggest)

    def sent_today(self, suggester: Seat, target: Seat) -> int:
        return sum(
            1
            for s in self.today()
            if s.suggester == suggester and s.target == target and s.answer != Answer.VOIDED
        )

    def received_today(self, target: Seat) -> int:
        return sum(1 for s in self.today() if s.target == target and s.answer != Answer.VOIDED)

    # --- answers -----------------------------------------------------------
    def suggestion(self, suggestion_id: int) -> Suggestion | None:
        if 1 <= suggestion_id <= len(self.suggestions):
            return self.suggestions[suggestion_id - 1]
        return None

    def pending_answers(self) -> tuple[Suggestion, ...]:
        return tuple(s for s in self.suggestions if s.answer == Answer.PENDING)

    def answers_owed_by(self, seat: Seat) -> tuple[Suggestion, ...]:
        return tuple(s for s in self.pending_answers() if s.target == seat)

    def answers_owed_to(self, seat: Seat) -> tuple[Suggestion, ...]:
        return tuple(s for s in self.pending_answers() if s.suggester == seat)

    # --- accusations -------------------------------------------------------
    @property
    def window_open(self) -> bool:
        return self.window is not None and self.window.open

    def accusations_in(self, window: int) -> tuple[Accusation, ...]:
        return tuple(a for a in self.accusations if a.window == window)

    @property
    def running(self) -> bool:
        return self.phase is Phase.RUNNING

    @property
    def paused(self) -> bool:
        return self.paused_at is not None
