"""Composers of the classic format's messages that need more than one catalog text."""

from __future__ import annotations

from typing import Any

from bot.render.arguments import flat_args
from bot.render.liars_messages import LIARS_COMPOSERS
from bot.render.messages import Composer, card_lines
from bot.render.reader import Reader
from bot.render.wording import inflected
from locales import t


def table_started(reader: Reader, args: dict[str, Any], key: str = "table.started") -> str:
    """The roster in turn order and the 21 cards (`key`: the format's opening words)."""
    lang = reader.language
    roster = "\n".join(
        t(
            lang,
            "game.roster_line",
            player=reader.mention(r["user"].id),
            role=reader.card(r["role"]),
        )
        for r in args["roster"]
    )
    cards = "\n".join(card_lines(reader, args["cards"]))
    return t(lang, key, roster=roster, cards=cards)


def table_suggestion(reader: Reader, args: dict[str, Any]) -> str:
    """The suggestion, and that the named token (when another's) and weapon come in."""
    head = inflected("table.suggestion")(reader, args)
    key = "table.brought" if args.get("brought") else "table.weapon_brought"
    return head + "\n" + t(reader.language, key, **flat_args(reader, args))


def prompt_closed(reader: Reader, args: dict[str, Any]) -> str:
    key = "dm.table_prompt_closed_gm" if args.get("by_gm") else "dm.table_prompt_closed"
    return t(reader.language, key, **flat_args(reader, args))


TABLE_COMPOSERS: dict[str, Composer] = {
    "table.started": table_started,
    "liars.started": lambda reader, args: table_started(reader, args, "liars.started"),
    **LIARS_COMPOSERS,
    "table.suggestion": table_suggestion,
    "dm.table_refute": inflected("dm.table_refute"),
    "dm.table_accused_right": inflected("dm.table_accused_right"),
    "dm.table_accused_wrong": inflected("dm.table_accused_wrong"),
    "dm.table_prompt_closed": prompt_closed,
}
