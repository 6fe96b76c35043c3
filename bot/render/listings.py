"""The texts of what a person asks to see: /games, /hand, /status (the forum's and the
table's), /cards, /settings, /log, /pack."""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from bot.render.arguments import flat_args
from bot.render.reader import Reader
from bot.render.wording import Composer, card_lines, join_lines, place_name
from bot.settings_text import describe_setting
from locales import t

BoardWords = Callable[[Reader, dict[str, Any]], str]
"""A board in words, by the edition that owns it (`bot.editions.board_post.board_words`)."""


def _with_labels(reader: Reader, item: dict[str, Any]) -> Reader:
    """The reader of one item that carries its own game's card names."""
    return Reader(reader.language, reader.timezone, reader.people, item.get("labels") or {})


def games_list(reader: Reader, args: dict[str, Any]) -> str:
    lang = reader.language
    if not args["games"]:
        return t(lang, "games.none")
    lines = [
        t(lang, f"games.line_{g['phase']}", **flat_args(reader, g), place=place_name(lang, g))
        for g in args["games"]
    ]
    return join_lines(t(lang, "games.title"), *lines)


def hand_list(reader: Reader, args: dict[str, Any]) -> str:
    lang = reader.language
    if not args["views"]:
        return t(lang, "hand.none")
    blocks = []
    for view in args["views"]:
        reader = _with_labels(reader, view)
        own = ("shown", "also_seen", "standing", "away_until", "day_counts")
        f = flat_args(reader, {k: v for k, v in view.items() if k not in own})
        shown = [
            t(
                lang,
                "hand.table_shown_line" if "turn" in s else "hand.shown_line",
                day=s.get("day", ""),
                turn=s.get("turn", ""),
                number=s["number"],
                card=reader.card(s["card"]),
            )
            for s in view["shown"]
        ]
        if view.get("also_seen"):  # the 2023 edition: cards seen in rooms, by clue cards
            seen = ", ".join(reader.card(card) for card in view["also_seen"])
            shown.append(t(lang, "hand.y2023_line", cards=seen))
        place = place_name(lang, view)
        head = t(lang, "hand.game", **{**f, "place": place})
        if "day_counts" in view:  # the forum's days (the table has none)
            head = join_lines(head, t(lang, "hand.day_counts", **view["day_counts"]))
        blocks.append(join_lines(head, *_presence_lines(reader, view), *shown))
    return "\n\n".join(blocks)


def _presence_lines(reader: Reader, view: dict[str, Any]) -> list[str]:
    """The player's standing answer and away time, when they have them."""
    lines = []
    if view.get("standing") and view["standing"].ids:
        cards = flat_args(reader, {"cards": view["standing"]})
        lines.append(t(reader.language, "hand.standing_line", **cards))
    if view.get("away_until") is not None:
        until = flat_args(reader, {"until": view["away_until"]})
        lines.append(t(reader.language, "hand.away_line", **until))
    return lines


def status(reader: Reader, args: dict[str, Any]) -> str:
    lang = reader.language
    reader = Reader(lang, args.get("tz", reader.timezone), reader.people)
    if args["phase"] == "lobby":
        return t(lang, "status.lobby", **flat_args(reader, {"players": args["lobby"]}))
    if args["phase"] == "ended":
        return t(lang, "status.ended")
    f = flat_args(reader, {k: v for k, v in args.items() if k not in ("seats", "lobby")})
    if args["paused"]:
        head = t(lang, "status.paused", **f)
    elif args["day_open"]:
        head = t(lang, "status.day", **f)
    else:
        head = t(lang, "status.no_day", **f)
    window = t(lang, "status.window", **f) if args["window_at"] else ""
    seats = []
    for seat in args["seats"]:
        state = (
            "status.seat_left"
            if not seat["active"]
            else ("status.seat_eliminated" if seat["eliminated"] else "status.seat")
        )
        seats.append(
            t(
                lang,
                state,
                player=reader.mention(seat["user"].id),
                left=seat["left"],
                count=seat["left"],
                owes=seat["owes"],
                accused=t(lang, "status.accused")
                if seat["accused"] and not seat["eliminated"]
                else "",
            )
        )
    unpinned = t(lang, "status.index_unpinned") if args.get("index_unpinned") else ""
    parts = (join_lines(head, window), join_lines(*seats), unpinned)
    return "\n\n".join(part for part in parts if part)


def cards_list(reader: Reader, args: dict[str, Any]) -> str:
    lang = reader.language
    lines = card_lines(reader, args["cards"])
    title = "cards.title_in_play" if args["in_play"] else "cards.title_pack"
    return join_lines(t(lang, title), *lines)


def settings_list(reader: Reader, args: dict[str, Any]) -> str:
    lang = reader.language
    lines = [
        t(
            lang,
            "settings.list_line",
            name=name,
            label=html.escape(t(lang, f"setting.{name}")),
            value=html.escape(describe_setting(lang, name, value)),
        )
        for name, value in args["settings"].items()
    ]
    title = "settings.title_game" if args["for_game"] else "settings.title_chat"
    return "\n\n".join((join_lines(t(lang, title), *lines), t(lang, "settings.how_to_change")))


def day_log(reader: Reader, args: dict[str, Any]) -> str:
    lang = reader.language
    if not args["entries"]:
        return t(lang, "log.empty", day=args["day"])
    lines = []
    for entry in args["entries"]:
        f = flat_args(reader, entry)
        answer = f"log.answer_{entry['answer']}" + ("_gm" if entry["by_gm"] else "")
        lines.append(t(lang, "log.line", **f) + " " + t(lang, answer, **f))
    return join_lines(t(lang, "log.title", day=args["day"]), *lines)


def pack_listing(key: str) -> Composer:
    """A pack message, followed by the pack's cards when there are any."""

    def compose(reader: Reader, args: dict[str, Any]) -> str:
        lang = reader.language
        head = t(lang, key)
        if not args.get("cards"):
            return head
        return join_lines(head, *card_lines(reader, args["cards"]))

    return compose


def table_status(reader: Reader, args: dict[str, Any], board_words: BoardWords) -> str:
    """/status at the table: the turn and its step, the board in words (by the edition that
    owns the board: `bot.editions.messages` passes them), the players."""
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
    words = board_words(reader, args["board"])
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


def pick_game(reader: Reader, args: dict[str, Any]) -> str:
    """Which of the person's games a private command is for: each by number and chat (an
    older message listed the numbers alone, for /notebook)."""
    lang = reader.language
    games = args["games"]
    if not isinstance(games, str):
        games = ", ".join(
            t(lang, "game.numbered", game=g["game"], place=place_name(lang, g)) for g in games
        )
    command = args.get("command", "notebook")
    return t(lang, "notebook.pick_game", games=games, first=args["first"], command=command)


LISTING_COMPOSERS: Mapping[str, Composer] = MappingProxyType(
    {
        "games.list": games_list,
        "hand.list": hand_list,
        "status.game": status,
        "cards.list": cards_list,
        "settings.list": settings_list,
        "log.day": day_log,
        "pack.usage": pack_listing("pack.usage"),
        "pack.saved": pack_listing("pack.saved"),
        "notebook.pick_game": pick_game,
    }
)
