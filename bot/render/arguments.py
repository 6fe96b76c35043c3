"""A message's typed arguments formatted for its reader: people as mentions, cards by name,
moments in the reader's zone, spans in words, categories and settings by their labels, time
zones by their city, languages by their own names."""

from __future__ import annotations

import html
from typing import Any

from bot.payload import (
    Card,
    Cards,
    Category,
    Language,
    Moment,
    Setting,
    Span,
    User,
    Users,
    Zone,
    upgrade,
)
from bot.render.reader import Reader
from locales import t
from locales.formats import language_name, zone_label


def flat_args(reader: Reader, args: dict[str, Any]) -> dict[str, Any]:
    """The catalog's placeholders from typed arguments (format-1 names are upgraded first).

    `Users` gives `count` too; strings are escaped; lists and dicts pass unchanged (their
    message's composer formats them)."""
    out: dict[str, Any] = {}
    for name, value in upgrade(args).items():
        if isinstance(value, Users):
            out[name] = ", ".join(reader.mention(u) for u in value.ids) or "—"
            out["count"] = len(value.ids)
        elif isinstance(value, User):
            out[name] = reader.mention(value.id)
        elif isinstance(value, Cards):
            out[name] = reader.cards(list(value.ids))
        elif isinstance(value, Card):
            out[name] = reader.card(value.id)
        elif isinstance(value, Moment):
            out[name] = reader.moment(value.iso)
        elif isinstance(value, Category):
            out[name] = html.escape(t(reader.language, f"kind.{value.value}"))
        elif isinstance(value, Setting):
            out[name] = html.escape(t(reader.language, f"setting.{value.name}"))
        elif isinstance(value, Span):
            out[name] = reader.duration(value.seconds)
        elif isinstance(value, Zone):
            out[name] = html.escape(zone_label(reader.language, value.name))
        elif isinstance(value, Language):
            out[name] = html.escape(language_name(value.code))
        elif isinstance(value, str):
            out[name] = html.escape(value)
        else:
            out[name] = value
    return out
