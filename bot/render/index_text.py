"""The text of a game's index (bot.announce.index decides what it shows): the rules in short,
the players, each day linked to its opening post where the chat has message links, the log
of what changed the game, and the end."""

from __future__ import annotations

import html
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from bot.render.arguments import flat_args
from bot.render.reader import Reader
from bot.render.wording import Composer, day_length_text, join_lines
from locales import t

SUPERGROUP = "-100"  # how a supergroup's chat id begins (a basic group's does not)


def message_link(chat_id: int, topic_id: int, message_id: int | None) -> str | None:
    """Telegram's link to a message for the chat's members: `https://t.me/c/<chat>/<id>` in a
    supergroup (the id without its -100), `…/<chat>/<topic>/<id>` in a forum topic; None in
    a basic group, which has no message links, or for a message not sent."""
    digits = str(chat_id)
    if message_id is None or not digits.startswith(SUPERGROUP):
        return None
    where = f"{topic_id}/{message_id}" if topic_id else str(message_id)
    return f"https://t.me/c/{digits[len(SUPERGROUP) :]}/{where}"


def index_text(reader: Reader, args: dict[str, Any]) -> str:
    """The index; its title alone for a payload the sender did not fill in (bot.delivery)."""
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
    days = " · ".join(_day(reader, args, day) for day in args["days"])
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


def _day(reader: Reader, args: dict[str, Any], day: dict[str, Any]) -> str:
    """A day's name, linked to its opening post when there is a link to it."""
    name = t(reader.language, "index.day", day=day["day"])
    link = message_link(args["chat"], args["topic"], day.get("message"))
    return f'<a href="{html.escape(link)}">{name}</a>' if link else name


INDEX_COMPOSERS: Mapping[str, Composer] = MappingProxyType({"index.post": index_text})
