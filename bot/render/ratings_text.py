"""Ratings in words: a chat's leaderboard (/top, /top all) and a person's record (/me)."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from bot.render.achievements_text import record_lines
from bot.render.reader import Reader
from locales import t
from locales.formats import decimal


def leaderboard(reader: Reader, args: dict[str, Any]) -> str:
    """Each family's best, by the cautious estimate; how one gets on it."""
    lang = reader.language
    shown = [board for board in args["boards"] if board["rows"]]
    if not shown:
        return t(lang, "top.none", count=args["min_games"])
    lines = [t(lang, "top.title_all" if args["everywhere"] else "top.title")]
    for board in shown:
        lines += ["", t(lang, f"top.family.{board['family']}")]
        for rank, row in enumerate(board["rows"], start=1):
            rating = decimal(lang, round(row["rating"], 1))
            who = reader.mention(row["player"].id)
            lines.append(
                t(
                    lang,
                    "top.row",
                    rank=rank,
                    player=who,
                    rating=rating,
                    wins=row["wins"],
                    count=row["games"],
                )
            )
    lines += ["", t(lang, "top.rule", count=args["min_games"])]
    return "\n".join(lines)


def record(reader: Reader, args: dict[str, Any]) -> str:
    """A person's rated games, wins, accusations, ratings with their uncertainty, and
    where they appear."""
    lang = reader.language
    lines = [t(lang, "me.title")]
    if not args["ratings"]:
        lines.append(t(lang, "me.none"))
    else:
        lines.append(t(lang, "me.games", count=args["games"]))
        lines.append(t(lang, "me.wins", count=args["wins"]))
        lines.append(t(lang, "me.right", count=args["right"]))
        lines.append(t(lang, "me.wrong", count=args["wrong"]))
        lines.append("")
        for row in args["ratings"]:
            lines.append(
                t(
                    lang,
                    "me.rating",
                    kind=t(lang, f"me.kind.{row['family']}.{row['pool']}"),
                    mu=decimal(lang, round(row["mu"], 1)),
                    sigma=decimal(lang, round(row["sigma"], 1)),
                    rating=decimal(lang, round(row["rating"], 1)),
                    count=row["games"],
                )
            )
        lines.append(t(lang, "me.explain"))
    lines += ["", *record_lines(reader, args.get("achievements", []))]
    lines.append("")
    lines.append(t(lang, "me.hidden" if args["hidden"] else "me.shown"))
    if not args["hidden"]:
        lines.append(t(lang, "me.everywhere_on" if args["everywhere"] else "me.everywhere_off"))
    return "\n".join(lines)


RATINGS_COMPOSERS = MappingProxyType({"top.board": leaderboard, "me.card": record})
