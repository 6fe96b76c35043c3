"""Game settings: every setting of docs/rules-*.md, frozen into a game when it starts."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from datetime import time, timedelta
from enum import StrEnum
from functools import cache
from types import MappingProxyType
from typing import Any
from zoneinfo import available_timezones

from engine.cards import CUSTOM, PACKS
from engine.errors import InvalidSetting, SettingReason, UnknownSetting

MINUTE = timedelta(minutes=1)

# Settings an admin may change while a game runs; they apply from the next day.
SCHEDULE_SETTINGS = frozenset({"day_length", "day_ends_at", "timezone"})


class GameFormat(StrEnum):
    """The formats this bot ships: the forum's days and addressed suggestions, or a table
    edition turn by turn on the board (each edition's rules are in its package, known to
    the engine through engine/editions.py). `Settings.format` is one of these keys, or
    the key of another format of the registry in use (engine/registry.py)."""

    FORUM = "forum"
    CLASSIC = "classic"
    Y2023 = "y2023"
    LIARS = "liars"


TABLE_SEATS = 6  # the most seats a table has (the six suspects' tokens)


class RoleAssignment(StrEnum):
    """How seats get their suspect: drawn at the start, or chosen when joining."""

    RANDOM = "random"
    CHOSEN = "chosen"


class NotebookHelp(StrEnum):
    """How much the notebook the GM keeps for each player tells them (the same for all):
    nothing beyond the hand, what they observed, what follows exactly, or exact odds."""

    OFF = "off"
    FACTS = "facts"
    DEDUCTIONS = "deductions"
    ODDS = "odds"


@dataclass(frozen=True)
class Settings:
    """All rule settings with their defaults (in brackets in docs/rules-*.md)."""

    day_length: timedelta = timedelta(hours=24)
    day_ends_at: time | None = None
    timezone: str = "UTC"
    suggestions_per_day: int = 3
    max_per_target_per_day: int = 3
    max_received_per_day: int | None = None
    extra_cards: int = 0
    role_assignment: RoleAssignment = RoleAssignment.RANDOM
    auto_no_refutation: bool = True
    answer_grace: timedelta | None = None
    missed_answer_penalty: int = 1
    accusation_window: timedelta = timedelta(hours=24)
    eliminated_may_suggest: bool = True
    open_day_if_window_left: timedelta | None = None
    min_players: int | None = None  # None: the format's own (FORUM_PLAYERS, an edition's)
    max_players: int | None = None
    pack: str = "classic"
    reminder_before: timedelta = timedelta(hours=3)
    # A GameFormat, or another format's key; what depends on the format (how many play,
    # its cards, whether it takes these settings) its spec answers (engine/formats.py).
    format: str = GameFormat.FORUM
    dice: int = 1  # the classic format: one die as in the old boxes, or two
    turn_time: timedelta = timedelta(minutes=3)
    refute_time: timedelta = timedelta(minutes=2)
    away_after: int = 2  # missed turns in a row before a player is marked away
    images: bool = True  # the classic format: the board as a picture (else in words)
    notebook: NotebookHelp = NotebookHelp.FACTS  # what each player's notebook tells them
    away_days: int = 3  # the forum: game days each player may be away in a game (/away)
    away_asked: bool = True  # the forum: away players may be asked (the GM answers at once)
    prod_idle: bool = True  # the forum: a player with no move for a whole day is reminded
    replacement_after: int = 3  # the forum: silent days before a replacement is asked for
    detective_delay: timedelta = timedelta(seconds=8)  # a computer detective's pause per move
    # Liars Edition: the investigation deck (not in the rulebook: a documented default)
    truth_move_cards: int = 4
    truth_pass_cards: int = 4
    truth_peek_cards: int = 4
    lie_cards: int = 6
    liar_window: timedelta = timedelta(seconds=30)

    def __post_init__(self) -> None:
        validate(self)

    @classmethod
    def upgrade(cls, data: dict[str, Any]) -> dict[str, Any]:
        """Stored settings as this version reads them: a zone accepted before zones were
        checked by name ("posixrules", New York's time) becomes a zone that is one."""
        zone = data.get("timezone")
        if isinstance(zone, str) and not known_zone(zone):
            return {**data, "timezone": OLD_ZONES.get(zone, "UTC")}
        return data

    @property
    def effective_answer_grace(self) -> timedelta:
        """`answer_grace`, or 2 h scaled with the day length (2 h for a 24 h day)."""
        if self.answer_grace is not None:
            return self.answer_grace
        return self.day_length / 12

    @property
    def effective_open_day_if_window_left(self) -> timedelta:
        """`open_day_if_window_left`, or half a day length."""
        if self.open_day_if_window_left is not None:
            return self.open_day_if_window_left
        return self.day_length / 2

    def changed(self, **changes: Any) -> Settings:
        """A copy with some settings changed, validated."""
        for name in changes:
            require_setting(name)
        return replace(self, **changes)


def require_setting(name: str) -> None:
    """A setting of docs/rules-*.md (a name people type is checked before its value is read)."""
    if name not in {f.name for f in fields(Settings)}:
        raise UnknownSetting(setting=name)


def _invalid(setting: str, reason: SettingReason, **values: Any) -> InvalidSetting:
    return InvalidSetting(setting=setting, reason=reason, **values)


def _role_assignment(value: str) -> RoleAssignment:
    try:
        return RoleAssignment(value)
    except ValueError:
        choices = ", ".join(RoleAssignment)
        raise _invalid("role_assignment", SettingReason.ONE_OF, choices=choices) from None


def _notebook_help(value: str) -> NotebookHelp:
    try:
        return NotebookHelp(value)
    except ValueError:
        choices = ", ".join(NotebookHelp)
        raise _invalid("notebook", SettingReason.ONE_OF, choices=choices) from None


def _game_format(value: str) -> str:
    """A shipped format as its GameFormat member, another format's key as is (whether a
    registry knows it is the registry's to say: engine/formats.py `spec_for`)."""
    try:
        return GameFormat(value)
    except ValueError:
        return value


def _validate_table(s: Settings) -> None:
    """The table formats' settings: dice and timers (the pack: `FormatSpec.check`)."""
    if not isinstance(s.format, GameFormat):
        object.__setattr__(s, "format", _game_format(s.format))
    if s.dice not in (1, 2):
        raise _invalid("dice", SettingReason.ONE_OF, choices="1, 2")
    for name in ("turn_time", "refute_time"):
        if getattr(s, name) < MINUTE:
            raise _invalid(name, SettingReason.AT_LEAST, minimum=MINUTE)
        if getattr(s, name) > timedelta(days=1):
            raise _invalid(name, SettingReason.AT_MOST, maximum=timedelta(days=1))
    if s.away_after < 1:
        raise _invalid("away_after", SettingReason.AT_LEAST, minimum=1)
    _validate_liars(s)


def _validate_liars(s: Settings) -> None:
    """Liars Edition: every seat holds an investigation card, so the deck has at least 6."""
    counts = ("truth_move_cards", "truth_pass_cards", "truth_peek_cards", "lie_cards")
    for name in counts:
        if getattr(s, name) < 0:
            raise _invalid(name, SettingReason.AT_LEAST, minimum=0)
        if getattr(s, name) > 50:
            raise _invalid(name, SettingReason.AT_MOST, maximum=50)
    if sum(getattr(s, name) for name in counts) < TABLE_SEATS:
        raise _invalid("lie_cards", SettingReason.DECK_TOO_SMALL, minimum=TABLE_SEATS)
    if s.liar_window < timedelta(seconds=10):
        raise _invalid("liar_window", SettingReason.AT_LEAST, minimum=timedelta(seconds=10))
    if s.liar_window > timedelta(hours=1):
        raise _invalid("liar_window", SettingReason.AT_MOST, maximum=timedelta(hours=1))


# A link tzdata keeps, not a zone's name.
OLD_ZONES = MappingProxyType({"posixrules": "America/New_York"})
# In the database, but no place's time: the system's own zone, tzdata's "unknown" zone.
NOT_ZONES = frozenset({"localtime", "posixrules", "Factory"})


@cache
def _zones() -> frozenset[str]:
    return frozenset(available_timezones()) - NOT_ZONES


def known_zone(name: object) -> bool:
    """Whether `name` is a zone of the IANA database, by its name: never raises (a folder
    such as "Europe/", a link such as "posixrules" or "localtime", a very long or odd
    string is simply not one)."""
    return isinstance(name, str) and name in _zones()


def validate(s: Settings) -> None:
    """Refuse settings that cannot make a game (a choice given as its plain value becomes
    its enum member)."""
    if s.day_length < MINUTE:
        raise _invalid("day_length", SettingReason.AT_LEAST, minimum=MINUTE)
    if s.day_length > timedelta(days=30):
        raise _invalid("day_length", SettingReason.AT_MOST, maximum=timedelta(days=30))
    if not known_zone(s.timezone):
        raise _invalid("timezone", SettingReason.UNKNOWN_TIMEZONE)
    for name in ("suggestions_per_day", "max_per_target_per_day"):
        if getattr(s, name) < 1:
            raise _invalid(name, SettingReason.AT_LEAST, minimum=1)
    if s.max_received_per_day is not None and s.max_received_per_day < 1:
        raise _invalid("max_received_per_day", SettingReason.AT_LEAST, minimum=1)
    if s.extra_cards < 0:
        raise _invalid("extra_cards", SettingReason.AT_LEAST, minimum=0)
    if s.missed_answer_penalty < 0:
        raise _invalid("missed_answer_penalty", SettingReason.AT_LEAST, minimum=0)
    if not isinstance(s.role_assignment, RoleAssignment):
        object.__setattr__(s, "role_assignment", _role_assignment(s.role_assignment))
    if not isinstance(s.notebook, NotebookHelp):
        object.__setattr__(s, "notebook", _notebook_help(s.notebook))
    if s.answer_grace is not None and s.answer_grace < timedelta(0):
        raise _invalid("answer_grace", SettingReason.AT_LEAST, minimum=timedelta(0))
    if s.accusation_window < MINUTE:
        raise _invalid("accusation_window", SettingReason.AT_LEAST, minimum=MINUTE)
    if s.open_day_if_window_left is not None and s.open_day_if_window_left < timedelta(0):
        raise _invalid("open_day_if_window_left", SettingReason.AT_LEAST, minimum=timedelta(0))
    for name in ("away_days", "replacement_after"):  # 0: none, never
        if getattr(s, name) < 0:
            raise _invalid(name, SettingReason.AT_LEAST, minimum=0)
        if getattr(s, name) > 30:
            raise _invalid(name, SettingReason.AT_MOST, maximum=30)
    if s.reminder_before < timedelta(0):
        raise _invalid("reminder_before", SettingReason.AT_LEAST, minimum=timedelta(0))
    if s.detective_delay < timedelta(seconds=1):  # 0 would let one sweep play a whole game
        raise _invalid("detective_delay", SettingReason.AT_LEAST, minimum=timedelta(seconds=1))
    if s.detective_delay > timedelta(hours=1):
        raise _invalid("detective_delay", SettingReason.AT_MOST, maximum=timedelta(hours=1))
    if s.pack not in PACKS and s.pack != CUSTOM:
        raise _invalid("pack", SettingReason.UNKNOWN_PACK)
    _validate_table(s)
    _validate_players(s)


def _validate_players(s: Settings) -> None:
    """At least two players; a maximum set no lower than the minimum set (no lower than
    the format's own minimum: `FormatSpec.check`)."""
    if s.min_players is not None and s.min_players < 2:
        raise _invalid("min_players", SettingReason.AT_LEAST, minimum=2)
    if s.max_players is not None and s.min_players is not None and s.max_players < s.min_players:
        raise _invalid("max_players", SettingReason.AT_LEAST, minimum=s.min_players)


def require_pack_available(pack: str, has_custom_pack: bool) -> None:
    """The "custom" pack setting needs a pack of the chat's (or the lobby's) own."""
    if pack == CUSTOM and not has_custom_pack:
        raise _invalid("pack", SettingReason.NO_CUSTOM_PACK)


def new_game_settings(defaults: Settings, has_custom_pack: bool) -> tuple[Settings, bool]:
    """The settings a chat's new game opens with, and whether they had to fall back.

    Defaults that name the chat's own pack when it has none (stored before this was
    refused) fall back to the classic pack, so /newgame always works.
    """
    if defaults.pack == CUSTOM and not has_custom_pack:
        return defaults.changed(pack="classic"), True
    return defaults, False
