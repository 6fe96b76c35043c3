"""Ratings in words: a chat's leaderboard (/top, /top season N, /top all) and a person's
record (/me)."""

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
    season = args.get("season")  # named once the chat has had more than one
    if not shown and season is not None:
        return t(lang, "top.none_season", count=args["min_games"], season=season)
    if not shown:
        return t(lang, "top.none", count=args["min_games"])
    title = "top.title_all" if args["everywhere"] else "top.title"
    lines = [t(lang, title) if season is None else t(lang, "top.title_season", season=season)]
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
        for row in args.get("moments", ()):
            said = moment_lines(lang, row)
            if said:
                lines += ["", t(lang, f"top.family.{row['family']}"), *said]
    lines += ["", *record_lines(reader, args.get("achievements", []))]
    lines += ["", *choice_lines(lang, args)]
    return "\n".join(lines)


def moment_lines(lang: str, row: dict[str, Any]) -> list[str]:
    """In one family's rated games: the average day or turn at which the person's notebook
    named the envelope, against the one at which they accused (storage.moments)."""
    family = row["family"]
    lines = []
    if row["forced"] is not None:
        day = decimal(lang, round(row["forced"], 1))
        lines.append(t(lang, f"me.forced.{family}", day=day, count=row["forced_games"]))
    elif row["accused"] is not None:
        lines.append(t(lang, "me.forced_never"))
    if row["accused"] is not None:
        day = decimal(lang, round(row["accused"], 1))
        lines.append(t(lang, f"me.accused.{family}", day=day, count=row["accused_games"]))
    return lines


def choice_lines(lang: str, args: dict[str, Any]) -> list[str]:
    """Where the person appears: hidden or listed, and across every chat or not."""
    lines = [t(lang, "me.hidden" if args["hidden"] else "me.shown")]
    if not args["hidden"]:
        lines.append(t(lang, "me.everywhere_on" if args["everywhere"] else "me.everywhere_off"))
    return lines


def caption(reader: Reader, args: dict[str, Any]) -> str:
    """The profile card's caption: whose record, and where they appear (the figures are
    in the picture, and in words behind its button)."""
    return "\n".join([t(reader.language, "me.title"), "", *choice_lines(reader.language, args)])


RATINGS_COMPOSERS = MappingProxyType(
    {"top.board": leaderboard, "me.card": record, "me.photo": caption}
)
