"""A message's typed arguments formatted for its reader: people as mentions, cards by name,
moments in the chat's zone, spans in words."""

from __future__ import annotations

import html
from typing import Any

from bot.render.reader import Reader
from locales import t


def flat_args(reader: Reader, args: dict[str, Any]) -> dict[str, Any]:
    """Format typed arguments by their name: *_user, *_users, *_card, *_cards, *_at, *_td."""
    out: dict[str, Any] = {}
    for name, value in args.items():
        if value is None or (
            isinstance(value, (list, dict)) and not name.endswith(("_users", "_cards"))
        ):
            out[name] = value
            continue
        if name.endswith("_users"):
            out[name[:-6]] = ", ".join(reader.mention(u) for u in value) or "—"
            out["count"] = len(value)
        elif name.endswith("_user"):
            out[name[:-5]] = reader.mention(value)
        elif name.endswith("_cards"):
            out[name[:-6]] = reader.cards(value)
        elif name.endswith("_card"):
            out[name[:-5]] = reader.card(value)
        elif name.endswith("_at"):
            out[name] = reader.moment(value)
        elif name.endswith("_category"):
            out[name[:-9]] = html.escape(t(reader.language, f"kind.{value}"))
        elif name.endswith("_setting"):
            out[name[:-8]] = html.escape(t(reader.language, f"setting.{value}"))
        elif name.endswith("_td"):
            out[name[:-3]] = reader.duration(value)
        elif isinstance(value, str):
            out[name] = html.escape(value)
        else:
            out[name] = value
    return out
