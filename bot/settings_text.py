"""Settings as people read and type them: "2h", "12:00", "on", "off", "Europe/Berlin"."""

from __future__ import annotations

import re
import typing
from collections.abc import Mapping, Sequence
from dataclasses import fields
from datetime import time, timedelta
from functools import cache
from types import MappingProxyType
from typing import Any

from bot.payload import Span
from engine import REGISTRY
from engine.settings import NotebookHelp, Settings
from locales import LANGUAGES, edition_words, every_word, formats, has, t
from locales.formats import unit_words, zone_label
from locales.zones import find_zone

# Each setting's type, as its field declares it: what a typed value is read as.
_TYPES: Mapping[str, Any] = MappingProxyType(typing.get_type_hints(Settings))
SETTING_NAMES: tuple[str, ...] = tuple(f.name for f in fields(Settings))


def _of_type(kind: type) -> frozenset[str]:
    """The settings whose values are of `kind` (or None)."""
    return frozenset(
        name
        for name in SETTING_NAMES
        if _TYPES[name] is kind or kind in typing.get_args(_TYPES[name])
    )


DURATIONS = _of_type(timedelta)  # "2h", "90m", "1d12h", "30s"
COUNTS = _of_type(int) - _of_type(bool)  # whole numbers ("dice" among them)
SWITCHES = _of_type(bool)
# "off" sets None: no day end, no limit, the automatic value, the format's player range.
OPTIONAL = frozenset(name for name in SETTING_NAMES if type(None) in typing.get_args(_TYPES[name]))
# Every unit word a duration may use in any of our languages (CLDR's), in seconds.
_UNITS = MappingProxyType(unit_words(LANGUAGES))
_NUMBER = r"[0-9]+(?:[.,][0-9]+)?"  # ASCII digits only: "²" or "١" are not numbers here
_PART = re.compile(rf"({_NUMBER})\s*([^\W\d_]+)\.?")  # "2 Std." as "2 Std"
_DURATION = re.compile(rf"(?:\s*{_NUMBER}\s*[^\W\d_]+\.?)+\s*")
MAX_DIGITS = 6  # no count, day or duration a person types needs more
MAX_DURATION = timedelta(days=366)


ON_WORDS, OFF_WORDS = every_word("setting.words_on"), every_word("setting.words_off")


class SettingInputError(ValueError):
    """The typed value does not fit the setting; `reason` is a catalog key suffix."""

    def __init__(self, reason: str, **values: Any) -> None:
        super().__init__(reason)
        self.reason = reason
        self.values = values


def parse_duration(text: str) -> timedelta:
    """Strictly "90m", "2h", "1d12h", "1d 12h", "1.5h", "2ч", "2 hours"; a bare number is hours.

    Each unit once, a known unit after every number, nothing else: "1.5.5h", "2hh", "h"
    and "-1h" are refused ("duration"), and so is anything over MAX_DURATION ("too_large").
    """
    raw = text.strip().casefold()
    if re.fullmatch(_NUMBER, raw):
        parts = [(raw, "h")]
    elif _DURATION.fullmatch(raw):
        parts = _PART.findall(raw)
    else:
        raise SettingInputError("duration")
    units = [_UNITS.get(unit) for _, unit in parts]
    if None in units or len(set(units)) != len(units):
        raise SettingInputError("duration")
    too_large = SettingInputError("too_large", maximum=Span.of(MAX_DURATION))
    total = 0.0
    for (number, _), unit in zip(parts, units, strict=True):
        whole, _, fraction = number.replace(",", ".").partition(".")
        whole = whole.lstrip("0") or "0"
        if len(whole) > MAX_DIGITS:
            raise too_large
        total += float(f"{whole}.{fraction[:MAX_DIGITS] or 0}") * (unit or 0)
    if total > MAX_DURATION.total_seconds():
        raise too_large
    return timedelta(seconds=round(total))


def parse_whole_number(text: str, *, signed: bool = False) -> int:
    """A whole number typed in ASCII digits, at most MAX_DIGITS of them (else "too_large")."""
    raw = text.strip()
    found = re.fullmatch(r"(-?)([0-9]+)" if signed else r"()([0-9]+)", raw)
    if found is None:
        raise SettingInputError("number")
    digits = found[2].lstrip("0") or "0"
    if len(digits) > MAX_DIGITS:
        raise SettingInputError("too_large", maximum=10**MAX_DIGITS - 1)
    return -int(digits) if found[1] else int(digits)


def parse_setting(name: str, text: str, formats: tuple[str, ...] = REGISTRY.keys) -> Any:
    """A typed value for one setting (validated later by the engine); `formats`: the keys of
    the formats the bot plays (the shipped ones unless told)."""
    if name not in SETTING_NAMES:
        raise SettingInputError("unknown")
    raw = text.strip()
    if name in OPTIONAL and raw.casefold() in OFF_WORDS:
        return None
    if name in DURATIONS:
        return parse_duration(raw)
    if name == "day_ends_at":
        match = re.fullmatch(r"([0-9]{1,2})[:.]([0-9]{2})", raw)
        if not match or int(match[1]) > 23 or int(match[2]) > 59:
            raise SettingInputError("time")
        return time(int(match[1]), int(match[2]))
    if name in SWITCHES:
        if raw.casefold() in ON_WORDS:
            return True
        if raw.casefold() in OFF_WORDS:
            return False
        raise SettingInputError("switch")
    if name in COUNTS:
        return parse_whole_number(raw, signed=True)
    if name == "format":  # its key, or what people call it in any language
        typed = raw.casefold()
        return next((k for k in formats if typed in edition_words(k)), typed)
    if name == "role_assignment":
        return raw.lower()
    if name == "notebook":  # its code, or its word in any language
        typed = raw.casefold()
        return next(
            (v for v in NotebookHelp if typed in every_word(f"setting.notebook_{v}")), typed
        )
    if name == "pack" and raw.casefold() in edition_words("classic"):
        return "classic"  # "/settings pack классика": the classic cards
    if name == "timezone":  # a city in any of our languages, an offset or an IANA name
        return find_zone(raw, LANGUAGES) or raw
    return raw


def plain_setting_name(text: str) -> str:
    """A setting's name as compared: any case, "_" as a space, no quotes, single spaces."""
    text = re.sub(r"[«»“”„\"']", "", text.casefold().replace("_", " "))
    return " ".join(text.split())


@cache
def _names_of(language: str, name: str) -> frozenset[str]:
    """How a setting may be typed in a language: its label, with or without its note in
    brackets."""
    label = plain_setting_name(t(language, f"setting.{name}"))
    return frozenset({label, plain_setting_name(re.sub(r"\s*\(.*\)\s*$", "", label))})


@cache
def longest_setting_name() -> int:
    """The most words a setting's name has in any language (no longer line is tried as
    one, so a long value costs nothing)."""
    return max(
        len(typed.split())
        for name in SETTING_NAMES
        for lang in LANGUAGES
        for typed in (*_names_of(lang, name), plain_setting_name(name))
    )


def split_setting(words: Sequence[str], languages: Sequence[str]) -> tuple[str, str]:
    """The setting a typed /settings line names first (its name in the code, or its label
    in one of `languages`), and the rest as its value; the first word when none matches."""
    for cut in range(min(len(words), longest_setting_name()), 0, -1):
        typed = plain_setting_name(" ".join(words[:cut]))
        for name in SETTING_NAMES:
            if typed == plain_setting_name(name) or any(
                typed in _names_of(lang, name) for lang in languages
            ):
                return name, " ".join(words[cut:])
    return (words[0].lower(), " ".join(words[1:])) if words else ("", "")


def describe_setting(language: str, name: str, value: Any) -> str:
    """A setting's value (as stored by engine.codec) for people."""
    if value is None:
        if name == "answer_grace":
            return t(language, "setting.value_auto_grace")
        if name == "open_day_if_window_left":
            return t(language, "setting.value_half_day")
        return t(language, "setting.value_off")
    if name in DURATIONS:
        return formats.duration(language, timedelta(seconds=float(value)))
    if isinstance(value, bool):
        return t(language, "setting.value_on" if value else "setting.value_off")
    if name == "role_assignment":
        return t(language, f"setting.role_{value}")
    if name == "notebook":
        return t(language, f"setting.notebook_{value}").split(",")[0].strip()
    if name == "format":  # what people call it in the language (the first of its words)
        return t(language, f"edition.words_{value}").split(",")[0].strip()
    if name == "pack" and has(language, f"setting.pack_{value}"):
        return t(language, f"setting.pack_{value}")
    if name == "timezone":
        return zone_label(language, str(value))
    return str(value)[:5] if name == "day_ends_at" else str(value)
