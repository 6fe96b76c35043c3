"""Message catalogs: one JSON file per language, keyed by event type and rule-error code."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

LANGUAGES = ("en", "ru")
DEFAULT_LANGUAGE = "en"
_HERE = Path(__file__).resolve().parent


@cache
def catalog(language: str) -> dict[str, Any]:
    """The whole catalog of a language (cached); an unknown language has none."""
    path = _HERE / f"{language}.json"
    if language not in LANGUAGES or not path.exists():
        return {}
    with path.open(encoding="utf-8") as f:
        data: dict[str, Any] = json.load(f)
    return data


def supported(language: str | None) -> str:
    """The catalog language for a Telegram language code ("ru-RU" → "ru"), else English."""
    if language:
        short = language.split("-")[0].lower()
        if short in LANGUAGES:
            return short
    return DEFAULT_LANGUAGE


def plural_form(language: str, count: int) -> str:
    """CLDR plural category: one / few / many / other (Russian, Belarusian, Ukrainian)."""
    n = abs(count)
    if language in ("ru", "be", "uk"):
        if n % 10 == 1 and n % 100 != 11:
            return "one"
        if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
            return "few"
        return "many"
    return "one" if n == 1 else "other"


def has(language: str, key: str) -> bool:
    return key in catalog(language)


def t(language: str, key: str, /, **values: Any) -> str:
    """The message `key` in `language`, filled with `values`.

    A plural entry is an object of CLDR forms chosen by the value `count`.
    A key missing from a catalog falls back to English, then to the key itself.
    """
    entry = catalog(language).get(key)
    if entry is None:
        entry = catalog(DEFAULT_LANGUAGE).get(key, key)
    if isinstance(entry, dict):
        form = plural_form(language, int(values.get("count", 0)))
        entry = entry.get(form) or entry["other"]
    return str(entry).format_map(values) if values else str(entry)
