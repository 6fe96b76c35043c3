"""A chat's records in words (/stats)."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from bot.render.reader import Reader
from bot.render.wording import join_lines
from locales import t
from locales.formats import decimal

MAX_LISTED = 15  # detectives listed, best first


def records(reader: Reader, args: dict[str, Any]) -> str:
    """The people's games, then those with a computer detective at the table, apart."""
    lines = [t(reader.language, "stats.title")]
    if args["played"]:
        lines += _people_games(reader, args)
    if args.get("computer_games"):
        lines.append(
            t(
                reader.language,
                "stats.computers",
                count=args["computer_games"],
                people=args["computer_people_won"],
                computers=args["computer_won"],
            )
        )
    return join_lines(*lines)


def _people_games(reader: Reader, args: dict[str, Any]) -> list[str]:
    lang = reader.language
    lines = [
        t(
            lang,
            "stats.games",
            count=args["played"],
            won=args["won"],
            no_winner=args["no_winner"],
            ended=args["ended"],
        ),
        t(lang, "stats.suggestions", count=args["suggestions"]),
    ]
    if args["forum_days"] is not None:
        days = round(args["forum_days"], 1)
        lines.append(t(lang, "stats.forum_days", days=decimal(lang, days), count=days))
    if args["table_turns"] is not None:
        turns = round(args["table_turns"], 1)
        lines.append(t(lang, "stats.table_turns", turns=decimal(lang, turns), count=turns))
    quickest = args["quickest"]
    if quickest is not None:
        key = "stats.quickest_turn" if quickest["table"] else "stats.quickest_day"
        who = reader.mention(quickest["player"].id)
        lines.append(t(lang, key, player=who, n=quickest["n"]))
    lines.append(t(lang, "stats.players_title"))
    for rank, record in enumerate(args["players"][:MAX_LISTED], start=1):
        who = reader.mention(record["player"].id)
        line = t(
            lang, "stats.player", rank=rank, player=who, won=record["won"], count=record["played"]
        )
        lines.append(line)
    return lines


RECORDS_COMPOSERS = MappingProxyType({"stats.chat": records})
