"""Message catalogs: one JSON file per language, keyed by event type and rule-error code.

A new language is its catalog file (`xx.json`, every key of `en.json`) and its code in
LANGUAGES; its plural categories, dates, durations and time-zone names come from CLDR
(locales.formats)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from locales.formats import decimal, language_name, plural_category

LANGUAGES = ("en", "ru", "uk", "be", "eo", "nl", "de", "es")
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


def known(language: str | None) -> bool:
    """Whether we have a catalog for a Telegram language code ("de-AT": German)."""
    return bool(language) and str(language).split("-")[0].lower() in LANGUAGES


def supported(language: str | None) -> str:
    """The catalog language for a Telegram language code ("ru-RU" → "ru"), else English."""
    if language:
        short = language.split("-")[0].lower()
        if short in LANGUAGES:
            return short
    return DEFAULT_LANGUAGE


def has(language: str, key: str) -> bool:
    return key in catalog(language)


class Checks:
    """What `t` refuses rather than guesses: the tests turn `plurals` on, so that a plural
    message given no count fails (in a running bot it reads as the "other" form)."""

    plurals = False


CHECKS = Checks()


def t(language: str, key: str, /, **values: Any) -> str:
    """The message `key` in `language`, filled with `values`.

    A plural entry is an object of CLDR plural categories chosen by the value `count` (a
    plural given no count is refused under `CHECKS.plurals`); the count is written as the
    language writes numbers ("1,5", "1.000.000"), its form chosen for the number shown.
    A key missing from a catalog falls back to English, then to the key itself.
    """
    entry = catalog(language).get(key)
    if entry is None:
        entry = catalog(DEFAULT_LANGUAGE).get(key, key)
    if isinstance(entry, dict):
        if "count" not in values:
            if CHECKS.plurals:
                raise KeyError(f"{key} is a plural and was given no count")
            entry = entry["other"]
        else:
            count = values["count"]
            if isinstance(count, float):  # the number shown, as the form is chosen for it
                count = round(count, 1)
            entry = entry.get(plural_category(language, count)) or entry["other"]
            values = {**values, "count": decimal(language, count)}
    return str(entry).format_map(values) if values else str(entry)


def language_of(typed: str) -> str | None:
    """A catalog's code from what a person typed: "de", "DE", "de-AT", "Deutsch"."""
    word = typed.strip().casefold()
    if not word:
        return None
    for code in LANGUAGES:
        if word in (code, language_name(code).casefold()) or word.startswith(f"{code}-"):
            return code
    return None


def edition_words(key: str) -> frozenset[str]:
    """What people call the game format `key` in any language (`edition.words_KEY`)."""
    return every_word(f"edition.words_{key}")


def every_word(key: str) -> frozenset[str]:
    """The words a comma-separated entry lists in any language, in lower case (what people
    may type: the words for on and off, the names of a game format)."""
    return frozenset(
        word.strip().casefold()
        for language in LANGUAGES
        for word in t(language, key).split(",")
        if word.strip()
    )
