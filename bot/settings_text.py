"""Settings as people read and type them: "2h", "12:00", "on", "off", "Europe/Berlin"."""

from __future__ import annotations

import re
from dataclasses import fields
from datetime import time, timedelta
from typing import Any

from bot.render import duration_text
from engine.settings import Settings
from locales import t

DURATIONS = frozenset(
    {
        "day_length",
        "answer_grace",
        "accusation_window",
        "open_day_if_window_left",
        "reminder_before",
    }
)
OPTIONAL = frozenset(
    {"day_ends_at", "max_received_per_day", "answer_grace", "open_day_if_window_left"}
)
SETTING_NAMES: tuple[str, ...] = tuple(f.name for f in fields(Settings))
_UNITS = {"d": 86400, "h": 3600, "m": 60, "s": 1, "д": 86400, "ч": 3600, "м": 60, "с": 1}
_DURATION = re.compile(r"(\d+(?:[.,]\d+)?)\s*([a-zа-я]*)", re.IGNORECASE)
MAX_DURATION = timedelta(days=366)
_OFF = {"off", "no", "none", "false", "нет", "выкл", "0ff"}
_ON = {"on", "yes", "true", "да", "вкл"}


class SettingInputError(ValueError):
    """The typed value does not fit the setting; `reason` is a catalog key suffix."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def parse_duration(text: str) -> timedelta:
    """ "90m", "2h", "1d 12h", "1.5h", "2ч"; a bare number means hours."""
    total = 0.0
    matched = False
    for number, unit in _DURATION.findall(text.strip()):
        unit = unit.lower()[:1] if unit else "h"
        if unit not in _UNITS:
            raise SettingInputError("duration")
        total += float(number.replace(",", ".")) * _UNITS[unit]
        matched = True
    if not matched or re.sub(r"[\d\s.,a-zа-я]", "", text, flags=re.IGNORECASE):
        raise SettingInputError("duration")
    if total > MAX_DURATION.total_seconds():
        raise SettingInputError("duration")
    return timedelta(seconds=round(total))


def parse_setting(name: str, text: str) -> Any:
    """A typed value for one setting (validated later by the engine)."""
    if name not in SETTING_NAMES:
        raise SettingInputError("unknown")
    raw = text.strip()
    if name in OPTIONAL and raw.lower() in _OFF:
        return None
    if name in DURATIONS:
        return parse_duration(raw)
    if name == "day_ends_at":
        match = re.fullmatch(r"(\d{1,2})[:.](\d{2})", raw)
        if not match or int(match[1]) > 23 or int(match[2]) > 59:
            raise SettingInputError("time")
        return time(int(match[1]), int(match[2]))
    default = getattr(Settings(), name)
    if isinstance(default, bool):
        if raw.lower() in _ON:
            return True
        if raw.lower() in _OFF:
            return False
        raise SettingInputError("switch")
    if isinstance(default, int) or name == "max_received_per_day":
        if not re.fullmatch(r"-?\d+", raw):
            raise SettingInputError("number")
        return int(raw)
    if name == "role_assignment":
        return raw.lower()
    return raw


def describe_setting(language: str, name: str, value: Any) -> str:
    """A setting's value (as stored by engine.codec) for people."""
    if value is None:
        if name == "answer_grace":
            return t(language, "setting.value_auto_grace")
        if name == "open_day_if_window_left":
            return t(language, "setting.value_half_day")
        return t(language, "setting.value_off")
    if name in DURATIONS:
        return duration_text(language, timedelta(seconds=float(value)))
    if isinstance(value, bool):
        return t(language, "setting.value_on" if value else "setting.value_off")
    if name == "role_assignment":
        return t(language, f"setting.role_{value}")
    return str(value)[:5] if name == "day_ends_at" else str(value)
