"""Composers of the classic format's messages that need more than one catalog text."""

from __future__ import annotations

from typing import Any

from bot.render.arguments import flat_args
from bot.render.board_post import place_of
from bot.render.board_text import board_text
from bot.render.liars_board import liars_text
from bot.render.liars_messages import LIARS_COMPOSERS
from bot.render.messages import Composer, card_lines
from bot.render.reader import Reader
from bot.render.wording import inflected
from engine.board import BOARDS
from engine.liars.cards import BOARD_KEY
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


def table_status(reader: Reader, args: dict[str, Any]) -> str:
    """/status at the table: the turn and its step, the board in words, the players."""
    lang = reader.language
    reader = Reader(lang, args.get("tz", reader.timezone), reader.people, reader.labels)
    f = flat_args(reader, {k: v for k, v in args.items() if k not in ("board", "seats")})
    head = [t(lang, "status.paused")] if args["paused"] else []
    head.append(t(lang, "status.table_turn", **f))
    head.append(t(lang, f"status.table_step_{args['step']}", **f))
    if args["due_at"] is not None:
        head.append(t(lang, "status.table_due", **f))
    elif not args["paused"]:
        head.append(t(lang, "status.table_waiting"))
    board = args["board"]
    tokens = {str(s): place_of(p) for s, p in board["tokens"]}
    weapons = {str(w): str(r) for w, r in board["weapons"]}
    if board["name"] == BOARD_KEY:  # the Liars Edition's ring
        face_up = tuple(str(c) for c in board.get("face_up", ()))
        rooms = {s: str(p) for s, p in tokens.items()}
        words = liars_text(reader, rooms, weapons, face_up)
    else:
        words = board_text(reader, BOARDS[str(board["name"])], tokens, weapons)
    seats = [
        t(
            lang,
            f"status.table_seat_{seat['state']}",
            player=reader.mention(seat["user"].id),
            suspect=reader.card(seat["suspect"].id),
        )
        for seat in args["seats"]
    ]
    return "\n\n".join(
        ("\n".join(head), words, "\n".join([t(lang, "status.table_players"), *seats]))
    )


def table_seat_history(reader: Reader, args: dict[str, Any]) -> str:
    """What a taken-over seat has learned: the cards shown to it."""
    lang = reader.language
    if not args["learned"]:
        return t(lang, "dm.table_seat_history_empty")
    lines = [t(lang, "dm.table_seat_history_line", **flat_args(reader, x)) for x in args["learned"]]
    return "\n".join([t(lang, "dm.table_seat_history"), *lines])


TABLE_COMPOSERS: dict[str, Composer] = {
    "table.started": table_started,
    "y2023.started": lambda reader, args: table_started(reader, args, "y2023.started"),
    "liars.started": lambda reader, args: table_started(reader, args, "liars.started"),
    **LIARS_COMPOSERS,
    "table.suggestion": table_suggestion,
    "dm.table_refute": inflected("dm.table_refute"),
    "dm.table_accused_right": inflected("dm.table_accused_right"),
    "dm.table_accused_wrong": inflected("dm.table_accused_wrong"),
    "dm.table_prompt_closed": prompt_closed,
    "status.table": table_status,
    "dm.table_seat_history": table_seat_history,
}
