"""Composers of the table's messages that need more than one catalog text (every table
edition's; an edition's own are in `bot.editions`)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from bot.render.arguments import flat_args
from bot.render.reader import Reader
from bot.render.wording import Composer, card_lines, inflected, roster_lines
from locales import t


def started(key: str) -> Composer:
    """A table game's start: the roster in turn order and the cards (`key`: the edition's
    opening words)."""

    def compose(reader: Reader, args: dict[str, Any]) -> str:
        lang = reader.language
        roster = "\n".join(roster_lines(reader, args["roster"]))
        cards = "\n".join(card_lines(reader, args["cards"]))
        return t(lang, key, roster=roster, cards=cards)

    return compose


def table_suggestion(reader: Reader, args: dict[str, Any]) -> str:
    """The suggestion, and that the named token (when another's) and weapon come in."""
    head = inflected("table.suggestion")(reader, args)
    key = "table.brought" if args.get("brought") else "table.weapon_brought"
    return head + "\n" + t(reader.language, key, **flat_args(reader, args))


def prompt_closed(reader: Reader, args: dict[str, Any]) -> str:
    key = "dm.table_prompt_closed_gm" if args.get("by_gm") else "dm.table_prompt_closed"
    return t(reader.language, key, **flat_args(reader, args))


def table_seat_history(reader: Reader, args: dict[str, Any]) -> str:
    """What a taken-over seat has learned: the cards shown to it."""
    lang = reader.language
    if not args["learned"]:
        return t(lang, "dm.table_seat_history_empty")
    lines = [t(lang, "dm.table_seat_history_line", **flat_args(reader, x)) for x in args["learned"]]
    return "\n".join([t(lang, "dm.table_seat_history"), *lines])


TABLE_COMPOSERS: Mapping[str, Composer] = MappingProxyType(
    {
        "table.suggestion": table_suggestion,
        "dm.table_refute": inflected("dm.table_refute"),
        "dm.table_accused_right": inflected("dm.table_accused_right"),
        "dm.table_accused_wrong": inflected("dm.table_accused_wrong"),
        "dm.table_prompt_closed": prompt_closed,
        "dm.table_seat_history": table_seat_history,
    }
)
