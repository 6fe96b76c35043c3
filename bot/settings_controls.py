"""The settings menu's buttons for one setting: the values a press may set (choices for
enumerations, a row of common values for durations, steps for counts, on/off for
switches). Which of them a game accepts is the engine's to say when the press comes."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import time, timedelta
from enum import Enum
from types import MappingProxyType
from typing import Any

from engine import REGISTRY
from engine.cards import CUSTOM, PACKS
from engine.formats import Specs
from engine.settings import NotebookHelp, RoleAssignment, Settings

SECONDS = timedelta(seconds=1)
MINUTES = timedelta(minutes=1)
HOURS = timedelta(hours=1)
DAYS = timedelta(days=1)

# Durations: a row of common values (None: the setting's automatic value).
COMMON: Mapping[str, tuple[timedelta | None, ...]] = MappingProxyType(
    {
        "day_length": (6 * HOURS, 12 * HOURS, DAYS, 2 * DAYS, 3 * DAYS, 7 * DAYS),
        "accusation_window": (6 * HOURS, 12 * HOURS, DAYS, 2 * DAYS, 3 * DAYS),
        "reminder_before": (timedelta(0), HOURS, 3 * HOURS, 6 * HOURS, 12 * HOURS),
        "answer_grace": (None, 30 * MINUTES, HOURS, 2 * HOURS, 4 * HOURS, 8 * HOURS),
        "open_day_if_window_left": (None, timedelta(0), 3 * HOURS, 6 * HOURS, 12 * HOURS),
        "turn_time": (MINUTES, 2 * MINUTES, 3 * MINUTES, 5 * MINUTES, 10 * MINUTES, 30 * MINUTES),
        "refute_time": (MINUTES, 2 * MINUTES, 3 * MINUTES, 5 * MINUTES, 10 * MINUTES),
        "liar_window": (timedelta(seconds=15), timedelta(seconds=30), MINUTES, 2 * MINUTES),
        "detective_delay": (SECONDS, 3 * SECONDS, 8 * SECONDS, 30 * SECONDS, 2 * MINUTES),
    }
)
# Counts changed a step at a time.
STEPPED = frozenset(
    {
        "suggestions_per_day",
        "max_per_target_per_day",
        "missed_answer_penalty",
        "extra_cards",
        "min_players",
        "max_players",
        "away_after",
        "away_days",
        "replacement_after",
        "truth_move_cards",
        "truth_pass_cards",
        "truth_peek_cards",
        "lie_cards",
    }
)
PLAYER_COUNTS = ("min_players", "max_players")  # None: the format's own range
SWITCHES = frozenset(
    {"auto_no_refutation", "eliminated_may_suggest", "images", "away_asked", "prod_idle"}
)
ZONES = (
    "UTC",
    "Europe/London",
    "Europe/Berlin",
    "Europe/Kyiv",
    "Europe/Minsk",
    "Europe/Moscow",
    "Asia/Yekaterinburg",
    "Asia/Vladivostok",
    "America/New_York",
)
DAY_ENDS = (None, time(0), time(6), time(9), time(12), time(18), time(21))


@dataclass(frozen=True)
class Offer:
    """One button of a setting: the value it sets, and its text as a button spec of
    `bot/render/keyboards.py` (a step, or the value in words)."""

    value: Any
    label: dict[str, Any]


def stored(value: Any) -> Any:
    """A setting's value as engine.codec stores it (what `describe_setting` reads)."""
    if isinstance(value, timedelta):
        return value.total_seconds()
    if isinstance(value, time):
        return value.isoformat()
    if isinstance(value, Enum):
        return value.value
    return value


def shown(settings: Settings, name: str, specs: Specs = REGISTRY.specs) -> Any:
    """A setting's value as menus and lists show it (stored, as `describe_setting` reads
    it); a player count left to the format (None) as the number in force (by `specs`: the
    bot's registry's, the shipped one's unless told)."""
    value = getattr(settings, name)
    if value is None and name in PLAYER_COUNTS:
        low, high = specs[settings.format].player_range(settings)
        return low if name == "min_players" else high
    return stored(value)


def choices(name: str, formats: tuple[str, ...] = REGISTRY.keys) -> tuple[Any, ...] | None:
    """The values offered for a setting that is not a count (None: it is a count);
    `formats`: the keys of the formats the bot plays."""
    if name in COMMON:
        return COMMON[name]
    if name in SWITCHES:
        return (True, False)
    fixed: dict[str, tuple[Any, ...]] = {
        "role_assignment": tuple(RoleAssignment),
        "notebook": tuple(NotebookHelp),
        "format": formats,
        "pack": (*PACKS, CUSTOM),
        "dice": (1, 2),
        "day_ends_at": DAY_ENDS,
        "timezone": ZONES,
        "max_received_per_day": (None, 1, 2, 3, 5, 10),
    }
    return fixed.get(name)


def offers(name: str, current: Settings, specs: Specs = REGISTRY.specs) -> tuple[Offer, ...]:
    """The buttons of one setting, given the values the menu shows (a step sets the value
    one away from the current one)."""
    now = getattr(current, name)
    values = choices(name, tuple(specs))
    if values is None:
        if name not in STEPPED:
            return ()
        count = shown(current, name, specs)  # a player count left to the format: the one in force
        return (
            Offer(count - 1, {"t": "menu.less", "args": {"value": count - 1}}),
            Offer(count + 1, {"t": "menu.more", "args": {"value": count + 1}}),
        )
    return tuple(
        Offer(value, {"setting": name, "value": stored(value), "chosen": value == now})
        for value in values
    )
