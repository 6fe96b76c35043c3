"""What the catalog tests share: the English catalog (every other one follows it), the
other languages, and small readers of their messages."""

from __future__ import annotations

import re
import string
from collections import Counter

from locales import DEFAULT_LANGUAGE, LANGUAGES, catalog

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
        "dm.gm_answered_none",
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
