"""The story of a game in words: day by day (the forum) or turn by turn (the table), each
suggestion with its answer, each accusation, then who could have named the envelope."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from bot.render.reader import Reader
from bot.render.wording import join_lines
from locales import t


def story(reader: Reader, args: dict[str, Any]) -> str:
    lang = reader.language
    lines = [t(lang, "story.title")]
    day = None
    for entry in args["entries"]:
        line = _entry(reader, entry)
        if args["table"]:
            lines.append(t(lang, "story.turn", n=entry["when"], line=line))
            continue
        if entry["when"] != day:
            day = entry["when"]
            lines.append(t(lang, "story.day", n=day))
        lines.append(line)
    if not args["entries"]:
        lines.append(t(lang, "story.nothing"))
    return join_lines(*lines, "", *_named(reader, args))


def _entry(reader: Reader, entry: dict[str, Any]) -> str:
    lang = reader.language
    cards = reader.cards(list(entry["cards"]))
    if "accused" in entry:
        key = "story.accused_right" if entry["correct"] else "story.accused_wrong"
        return t(lang, key, player=_who(reader, entry["accused"]), cards=cards)
    answer = _answer(reader, entry)
    if entry.get("target") is not None:
        target = _who(reader, entry["target"])
        suggester = _who(reader, entry["suggester"])
        return t(
            lang, "story.asked", suggester=suggester, target=target, cards=cards, answer=answer
        )
    return t(
        lang,
        "story.suggested",
        suggester=_who(reader, entry["suggester"]),
        cards=cards,
        answer=answer,
    )


def _answer(reader: Reader, entry: dict[str, Any]) -> str:
    lang = reader.language
    if entry["voided"]:
        return t(lang, "story.voided")
    parts = []
    passed = entry["passed"].ids
    if passed:
        names = ", ".join(reader.mention(u) for u in passed)
        parts.append(t(lang, "story.passed", players=names))
    if entry["shown_by"] is not None:
        key = "story.shown_by_gm" if entry["by_gm"] else "story.shown"
        who = _who(reader, entry["shown_by"])
        parts.append(t(lang, key, player=who, card=reader.card(entry["card"])))
    elif entry.get("target") is not None:
        key = "story.not_refuted_by_gm" if entry["by_gm"] else "story.not_refuted"
        parts.append(t(lang, key, player=_who(reader, entry["target"])))
    else:
        parts.append(t(lang, "story.nobody"))
    return "; ".join(parts)


def _named(reader: Reader, args: dict[str, Any]) -> list[str]:
    lang = reader.language
    lines = [t(lang, "story.named_title")]
    when_key = "notebook.when_turn" if args["table"] else "notebook.when_day"
    for named in args["named"]:
        who = _who(reader, named["player"])
        if named["when"] is None:
            lines.append(t(lang, "story.named_never", player=who))
        else:
            when = t(lang, when_key, n=named["when"])
            lines.append(t(lang, "story.named_from", player=who, when=when))
    return lines


def _who(reader: Reader, user: Any) -> str:
    return reader.mention(user.id) if user is not None else "?"


STORY_COMPOSERS = MappingProxyType({"story.post": story})
