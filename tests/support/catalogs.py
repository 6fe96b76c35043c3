"""What the catalog tests share: the English catalog (every other one follows it), the
other languages, and small readers of their messages."""

from __future__ import annotations

import re
import string
from collections import Counter
from functools import cache

from locales import DEFAULT_LANGUAGE, LANGUAGES, catalog, t

EN = catalog("en")
KEYS = sorted(EN)
OTHERS = tuple(language for language in LANGUAGES if language != DEFAULT_LANGUAGE)
ALLOWED_TAGS = {"b", "i", "code", "a"}
# Messages rendered with a `count` value (bot/messages.py, bot/render.py: a *_users argument
# adds its length as count): only these may become plural objects in another language where
# English has none, and only these may use {count} where English does not.
RENDERED_WITH_COUNT = frozenset(
    {
        "lobby.opened",
        "lobby.started",
        "status.lobby",
        "dm.gm_answered",
        "dm.gm_answered_penalty",
        "suggestion.refunded",
        "accusation.window_opened",
        "accusation.may_still_suggest",
        "dm.accusation_wrong_may_suggest",
    }
)
TAG = re.compile(r"<\s*(/?)\s*([A-Za-z][A-Za-z0-9-]*)")


def forms(entry: str | dict[str, str]) -> dict[str, str]:
    """A message's text per plural form ("" for a plain message)."""
    return dict(entry) if isinstance(entry, dict) else {"": entry}


def placeholders(text: str) -> set[str]:
    """The names of the {placeholders} of a message (raises on unbalanced braces)."""
    return {
        re.split(r"[.\[]", name)[0]
        for _, name, _, _ in string.Formatter().parse(text)
        if name is not None
    }


def tags(text: str) -> Counter[str]:
    return Counter(name.lower() for slash, name in TAG.findall(text) if not slash)


def all_texts(lang: str) -> list[tuple[str, str, str]]:
    entries = catalog(lang)
    return [
        (key, form, text) for key in sorted(entries) for form, text in forms(entries[key]).items()
    ]


# --- the catalogs agree ------------------------------------------------------------------


WORD = re.compile(r"[^\W\d_]{3,}")


@cache
def own_words(language: str) -> frozenset[str]:
    """The words (three letters or more, lower case) of a catalog's own text, placeholders
    and markup aside."""
    found: set[str] = set()
    for _, _, text in all_texts(language):
        for literal, _, _, _ in string.Formatter().parse(text):
            plain = re.sub(r"<[^>]*>", " ", literal)
            found.update(w.casefold() for w in WORD.findall(plain))
    return frozenset(found)


def english_words(text: str, language: str, allowed: frozenset[str] = frozenset()) -> list[str]:
    """The words of `text` that the English catalog uses and `language`'s never does (nor
    `allowed`: people's names, say): English that leaked into a message of `language`."""
    foreign = _foreign_words(language, allowed)
    return [w for w in WORD.findall(text) if w.casefold() in foreign]


@cache
def _foreign_words(language: str, allowed: frozenset[str]) -> frozenset[str]:
    """The English catalog's words that `language`'s never uses, `allowed` aside (worked
    out once: tens of thousands of messages are checked against them)."""
    return own_words(DEFAULT_LANGUAGE) - own_words(language) - allowed


def literal(language: str, key: str) -> str:
    """The longest piece of a message's own text (between its placeholders, tags aside)."""
    pieces = string.Formatter().parse(t(language, key))
    return max((re.sub(r"<[^>]*>", "", text).strip() for text, _, _, _ in pieces), key=len)
