"""The text of a game's index (bot.announce.index decides what it shows): the rules in short,
the players, each day linked to its opening post where the chat has message links (the
sender finds the link: bot.delivery.links), the log of what changed the game, and the end."""

from __future__ import annotations

import html
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from bot.render.arguments import flat_args
from bot.render.reader import Reader
from bot.render.wording import Composer, day_length_text, join_lines
from locales import t


def planned_bare(kind: str, args: dict[str, Any]) -> bool:
    """An index message planned without its content (an outbox row written before the
    content was planned with it): posted, its title; an edit of it is not sent, so the
    post keeps what it shows until the next change."""
    return kind in INDEX_COMPOSERS and "players" not in args


def index_text(reader: Reader, args: dict[str, Any]) -> str:
    """The index; its title alone for a payload planned without its content (`planned_bare`)."""
    lang = reader.language
    if "players" not in args:
        return t(lang, "index.title")
    rules = t(
        lang,
        "index.rules",
        day_length=day_length_text(lang, args["day_length"].seconds),
        window=day_length_text(lang, args["window"].seconds),
        per_day=args["per_day"],
        per_target=args["per_target"],
    )
    players = [
        t(lang, f"index.player_{p['state']}", **flat_args(reader, p)) for p in args["players"]
    ]
    days = " · ".join(_day(reader, day) for day in args["days"])
    moments = [t(lang, f"index.{m['kind']}", **flat_args(reader, m)) for m in args["moments"]]
    if args["earlier"]:
        moments.insert(0, t(lang, "index.earlier", count=args["earlier"]))
    end = args.get("end")
    parts = [
        join_lines(t(lang, "index.title"), rules),
        join_lines(t(lang, "index.players"), *players),
        t(lang, "index.days", days=days) if days else "",
        join_lines(t(lang, "index.log"), *moments) if moments else "",
        t(lang, f"index.end_{end['reason']}", **flat_args(reader, end)) if end else "",
    ]
    return "\n\n".join(part for part in parts if part)


def _day(reader: Reader, day: dict[str, Any]) -> str:
    """A day's name, linked to its opening post when there is a link to it."""
    name = t(reader.language, "index.day", day=day["day"])
    link = day["post"].url
    return f'<a href="{html.escape(link)}">{name}</a>' if link else name


INDEX_COMPOSERS: Mapping[str, Composer] = MappingProxyType({"index.post": index_text})
