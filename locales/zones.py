"""Time zones as people type them: a city in any of our languages ("Minsk", "Мінск",
"Nueva York"), an IANA name ("Europe/Minsk") or an offset ("+3", "UTC−5", "GMT+5:30");
and the zones a language's readers most often live in (for buttons)."""

from __future__ import annotations

import re
import unicodedata
from datetime import UTC, datetime, timedelta
from functools import cache
from importlib.resources import files
from zoneinfo import ZoneInfo, available_timezones

from babel.dates import get_timezone_location

from engine.settings import known_zone
from locales.formats import locale

_OFFSET = re.compile(r"(?:utc|gmt)?\s*([+\-−])\s*(\d{1,2})(?:[:.]?(\d{2}))?")
MAX_OFFSET = timedelta(hours=14)


def find_zone(text: str, languages: tuple[str, ...]) -> str | None:
    """The IANA zone `text` names, or None: an IANA name in any case, "UTC", an offset from
    UTC, or a city as CLDR names it in one of `languages` or in English."""
    typed = " ".join(text.split())
    if not typed or len(typed) > 64:
        return None
    zones = _zone_names()
    if typed.casefold() in zones:
        return zones[typed.casefold()]
    if typed.casefold() in ("utc", "gmt", "z"):
        return "UTC"
    found = _OFFSET.fullmatch(typed.casefold())
    if found is not None:
        return _offset_zone(found[1], int(found[2]), int(found[3] or 0))
    return _cities(tuple(sorted({*languages, "en"}))).get(_key(typed))


def _offset_zone(sign: str, hours: int, minutes: int) -> str | None:
    """A zone always that far from UTC: Etc/GMT∓N for whole hours (POSIX signs are the
    other way round), else a city whose offset it is all year (India's +5:30)."""
    if minutes >= 60:
        return None
    offset = timedelta(hours=hours, minutes=minutes) * (-1 if sign in "-−" else 1)
    if abs(offset) > MAX_OFFSET:
        return None
    if not minutes:
        whole = int(offset.total_seconds() // 3600)
        return "UTC" if whole == 0 else f"Etc/GMT{-whole:+d}"
    return _steady_offsets().get(offset)


@cache
def _steady_offsets() -> dict[timedelta, str]:
    """For each offset some city keeps all year: the first such city by name."""
    found: dict[timedelta, str] = {}
    winter, summer = datetime(2026, 1, 15, tzinfo=UTC), datetime(2026, 7, 15, tzinfo=UTC)
    for name in _by_preference():
        zone = ZoneInfo(name)
        offsets = {winter.astimezone(zone).utcoffset(), summer.astimezone(zone).utcoffset()}
        if len(offsets) == 1:
            offset = offsets.pop()
            if offset is not None:
                found.setdefault(offset, name)
    return found


@cache
def _by_preference() -> list[str]:
    """The city zones, today's names first (tzdata's zone1970.tab: "Europe/Kyiv" before the
    old "Europe/Kiev" it links to), then the other cities' zones by name."""
    table = files("tzdata").joinpath("zoneinfo", "zone1970.tab").read_text(encoding="utf-8")
    current = [
        line.split("\t")[2] for line in table.splitlines() if line and not line.startswith("#")
    ]
    known = available_timezones()
    old = ("Etc/", "SystemV/", "US/", "Brazil/", "Canada/", "Chile/", "Mexico/")
    rest = [n for n in sorted(known) if "/" in n and not n.startswith(old) and n not in current]
    return [n for n in current if n in known] + rest


@cache
def _zone_names() -> dict[str, str]:
    """Every zone by its IANA name, in any case (the engine's check decides which names are
    zones: the system's "localtime" and the like are not)."""
    return {name.casefold(): name for name in available_timezones() if known_zone(name)}


@cache
def _cities(languages: tuple[str, ...]) -> dict[str, str]:
    """Every city zone by its name in `languages` (CLDR's) and by its IANA city part."""
    found: dict[str, str] = {}
    now = datetime.now(UTC)
    for name in _by_preference():
        city = name.partition("/")[2]
        found.setdefault(_key(city.rsplit("/", 1)[-1].replace("_", " ")), name)
        local = now.astimezone(ZoneInfo(name))
        for language in languages:
            named = get_timezone_location(local, locale=locale(language), return_city=True)
            found.setdefault(_key(str(named)), name)
    return found


def _key(text: str) -> str:
    """A city name compared loosely: case, accents, dashes and spaces aside."""
    plain = unicodedata.normalize("NFKD", text.casefold())
    plain = "".join(ch for ch in plain if not unicodedata.combining(ch))
    return re.sub(r"[\s\-‐–—_'’.]+", "", plain)
