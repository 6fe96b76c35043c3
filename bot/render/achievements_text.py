"""Achievements in words: the post in a game's thread, the private message to each person
who earned one, and the lines of /me. Each achievement is its name and its rule
(`achievement.name.KEY`, `achievement.rule.KEY`)."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from bot.render.reader import Reader
from engine.achievements import ACHIEVEMENTS
from locales import t


def _named(language: str, key: str) -> dict[str, str]:
    return {
        "name": t(language, f"achievement.name.{key}"),
        "rule": t(language, f"achievement.rule.{key}"),
    }


def thread_post(reader: Reader, args: dict[str, Any]) -> str:
    """The game's achievements: a line per person, naming theirs (their rules are told
    to them privately, in words meant for them)."""
    lang = reader.language
    lines = [t(lang, "achievements.post")]
    for entry in args["earned"]:
        names = ", ".join(f"<b>{t(lang, f'achievement.name.{key}')}</b>" for key in entry["keys"])
        player = reader.mention(entry["player"].id)
        lines.append(t(lang, "achievements.player_line", player=player, names=names))
    return "\n".join(lines)


def private_message(reader: Reader, args: dict[str, Any]) -> str:
    """What the person earned in the game (the game's line is added above it)."""
    lang = reader.language
    lines = [t(lang, "achievements.private", count=args["count"])]
    lines += [t(lang, "achievements.line", **_named(lang, key)) for key in args["keys"]]
    return "\n".join(lines)


def record_lines(reader: Reader, keys: list[str]) -> list[str]:
    """/me: how many of the list the person has, and each one earned."""
    lang = reader.language
    if not keys:
        return [t(lang, "me.achievements_none")]
    head = t(lang, "me.achievements", earned=len(keys), total=len(ACHIEVEMENTS))
    return [head, *(t(lang, "achievements.line", **_named(lang, key)) for key in keys)]


ACHIEVEMENT_COMPOSERS = MappingProxyType(
    {"achievements.thread": thread_post, "achievements.mine": private_message}
)
