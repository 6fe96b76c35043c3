"""Plural categories, dates, times, durations and time zones in every language, from CLDR's
data through Babel: nothing of a language's grammar is written by hand here."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from functools import cache, lru_cache
from zoneinfo import ZoneInfo

from babel import Locale
from babel.dates import format_skeleton, get_timezone_location
from babel.numbers import format_decimal
from babel.units import format_unit

UNITS = (("day", 86400), ("hour", 3600), ("minute", 60), ("second", 1))


@cache
def locale(language: str) -> Locale:
    return Locale.parse(language)


def plural_category(language: str, count: float) -> str:
    """CLDR's plural category of `count` in `language` ("one", "few", "many", "other", ...)."""
    if isinstance(count, int) and 0 <= count < 1000:  # the usual counts, looked up once
        return _whole_plural(language, count)
    return str(locale(language).plural_form(abs(count)))


@lru_cache(maxsize=8192)
def _whole_plural(language: str, count: int) -> str:
    return str(locale(language).plural_form(count))


def plural_categories(language: str) -> frozenset[str]:
    """Every plural category the language's numbers fall into ("other" always among them)."""
    return frozenset(locale(language).plural_form.tags) | {"other"}


@lru_cache(maxsize=4096)  # counts recur: the same few numbers in few languages
def decimal(language: str, value: float) -> str:
    """A number with at most one decimal, as the language writes it: "4.5", "4,5"."""
    return str(format_decimal(value, format="#,##0.#", locale=locale(language)))


def language_name(language: str) -> str:
    """The language's own name for itself, capitalised: "Deutsch", "Русский"."""
    name = locale(language).display_name or language
    return name[:1].upper() + name[1:]


def moment(language: str, when: datetime, zone: str) -> str:
    """A moment in `zone`, with the zone named: "Dec 3, 09:07 (Minsk, UTC+3)"."""
    return _moment(language, when.replace(second=0, microsecond=0), zone)


@lru_cache(maxsize=4096)  # a game's deadlines are read by many, in few languages
def _moment(language: str, when: datetime, zone: str) -> str:
    local = when.astimezone(ZoneInfo(zone))
    where = locale(language)
    date = format_skeleton("MMMd", local, locale=where)
    clock = format_skeleton("Hm", local, locale=where)
    both = str(where.datetime_formats["short"]).replace("{1}", date).replace("{0}", clock)
    return f"{both} ({zone_label(language, zone, local)})"


def zone_label(language: str, zone: str, at: datetime | None = None) -> str:
    """A time zone as people know it: its city in their language and its offset from UTC
    at `at` (now by default): "Minsk, UTC+3", "Нью-Йорк, UTC−5"; "UTC+3" for a bare offset."""
    local = (at or datetime.now(UTC)).astimezone(ZoneInfo(zone))
    offset = utc_offset(local.utcoffset() or timedelta(0))
    if "/" not in zone or zone.startswith("Etc/"):
        return offset
    city = get_timezone_location(local, locale=locale(language), return_city=True)
    return f"{city}, {offset}"


def utc_offset(offset: timedelta) -> str:
    """ "UTC", "UTC+3", "UTC−5", "UTC+5:30"."""
    minutes = int(offset.total_seconds() // 60)
    if minutes == 0:
        return "UTC"
    sign = "+" if minutes > 0 else "−"
    hours, rest = divmod(abs(minutes), 60)
    return f"UTC{sign}{hours}" + (f":{rest:02d}" if rest else "")


def duration(language: str, span: timedelta) -> str:
    """ "1 day 2 hours", "30 minutes": whole days, hours, minutes and seconds, each in the
    language's own words and plural form."""
    left = int(span.total_seconds())
    parts = []
    for unit, seconds in UNITS:
        count, left = divmod(left, seconds)
        if count:
            parts.append(unit_count(language, unit, count))
    return " ".join(parts) or unit_count(language, "minute", 0)


@lru_cache(maxsize=4096)  # a game's spans are a few, read by many in few languages
def unit_count(language: str, unit: str, count: int) -> str:
    """ "2 hours", "2 часа": a count of one unit of time (day, hour, minute, second)."""
    return str(format_unit(count, f"duration-{unit}", length="long", locale=locale(language)))


SAMPLES = (0, 1, 2, 3, 5, 11, 21, 22, 101, 1.5)  # a number of each plural category


@cache
def unit_words(languages: tuple[str, ...]) -> dict[str, int]:
    """Every word (long, short and narrow, every plural form) these languages write after a
    number of days, hours, minutes or seconds, lower-case and without a final dot, with its
    length in seconds; a word two units share in some language is left out."""
    found: dict[str, set[int]] = {}
    for language in languages:
        for unit, seconds in UNITS:
            for length in ("long", "short", "narrow"):
                for n in SAMPLES:
                    text = format_unit(
                        n, f"duration-{unit}", length=length, locale=locale(language)
                    )
                    word = re.sub(r"[\d.,\s\u00a0\u202f]+", " ", str(text)).strip().casefold()
                    if word and " " not in word:
                        found.setdefault(word.rstrip("."), set()).add(seconds)
    return {word: next(iter(units)) for word, units in found.items() if len(units) == 1}
