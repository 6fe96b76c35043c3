"""The text of /log @player: a player's suggestions and how each was answered, their answers
to others' (never the card), and their accusations (never the cards)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from bot.render.arguments import flat_args
from bot.render.reader import Reader
from bot.render.wording import Composer, join_lines
from locales import t


def player_log(reader: Reader, args: dict[str, Any]) -> str:
    lang = reader.language
    made = [_made(reader, entry) for entry in args["made"]]
    answered = [_answered(reader, entry) for entry in args["answered"]]
    accused = [_accused(reader, entry) for entry in args["accusations"]]
    f = flat_args(reader, {"player": args["player"]})
    return "\n\n".join(
        (
            t(lang, "log.player_title", **f),
            _section(lang, "log.player_made", made),
            _section(lang, "log.player_answers", answered),
            "\n".join(accused) or t(lang, "log.player_accusations_none"),
        )
    )


def _section(lang: str, key: str, lines: list[str]) -> str:
    """A titled list, or the title's "none" line."""
    return join_lines(t(lang, key), *lines) if lines else t(lang, f"{key}_none")


def _line(reader: Reader, key: str, entry: dict[str, Any]) -> str:
    """A suggestion's line up to its answer: by day in the forum, by turn at the table."""
    f = flat_args(reader, {k: v for k, v in entry.items() if k != "replies"})
    return t(reader.language, f"{key}_turn_line" if entry["turn"] else f"{key}_line", **f)


def _made(reader: Reader, entry: dict[str, Any]) -> str:
    """One of the player's suggestions and its answer: the target's in the forum; at the
    table, those who could not refute, then who showed a card (or is asked, or nobody)."""
    lang = reader.language
    head = _line(reader, "log.player_made", entry)
    replies = entry["replies"]
    if not entry["turn"]:
        answer, gm = replies[0]["answer"], "_gm" if replies[0]["by_gm"] else ""
        return f"{head} {t(lang, f'log.answer_{answer}{gm}')}"
    passed = [r for r in replies if r["answer"] == "not_refuted"]
    last = replies[-1] if replies and replies[-1]["answer"] != "not_refuted" else None
    parts = []
    if passed and last is not None:
        players = ", ".join(reader.mention(r["player"].id) for r in passed)
        parts.append(t(lang, "log.player_passed", players=players))
    if last is None:
        parts.append(t(lang, "log.player_nobody"))
    else:
        refuter = reader.mention(last["player"].id)
        kind = "shown" if last["answer"] == "refuted" else "asked"
        gm = "_gm" if last["by_gm"] and kind == "shown" else ""
        parts.append(t(lang, f"log.player_{kind}{gm}", refuter=refuter))
    return " ".join((head, *parts))


def _answered(reader: Reader, entry: dict[str, Any]) -> str:
    """Another's suggestion the player was asked about, and what they answered."""
    head = _line(reader, "log.player_answer", entry)
    answer, by_gm = entry["answer"], entry["by_gm"]
    gm = "_gm" if by_gm and answer in ("refuted", "not_refuted") else ""
    return f"{head} {t(reader.language, f'log.player_reply_{answer}{gm}')}"


def _accused(reader: Reader, entry: dict[str, Any]) -> str:
    lang = reader.language
    f = flat_args(reader, entry)
    head = t(lang, "log.player_accused_turn" if entry["turn"] else "log.player_accused", **f)
    correct = entry["correct"]
    outcome = "waiting" if correct is None else "right" if correct else "wrong"
    return f"{head} {t(lang, f'log.player_accused_{outcome}')}"


PLAYER_LOG_COMPOSERS: Mapping[str, Composer] = MappingProxyType({"log.player": player_log})
