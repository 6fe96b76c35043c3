"""/me's profile card: the record's arguments (bot/handlers/ratings.py) in the reader's
words, drawn by bot/render/profile_picture.py, the caption saying where they appear; when
the picture cannot be drawn, the whole record in words instead."""

from __future__ import annotations

import html
import logging
import re
import unicodedata
from typing import Any

from bot.render.achievements_text import record_lines
from bot.render.profile_picture import ProfileCard, RatingLine, Section, Stat, card_png
from bot.render.ratings_text import moment_lines, record
from bot.render.reader import Reader
from locales import t
from locales.formats import decimal

log = logging.getLogger(__name__)

TAG = re.compile(r"<[^>]+>")
FIGURES = ("games", "wins", "right", "wrong")


def me_post(reader: Reader, args: dict[str, Any], caption: str) -> tuple[str, bytes | None]:
    """The caption and the card; the record in words alone if drawing fails."""
    try:
        return caption, card_png(profile_card(reader, args))
    except Exception:  # a font or Pillow problem: the person still gets their record
        log.exception("profile card could not be drawn; sent as text")
        return record(reader, args), None


def plain(text: str) -> str:
    """A catalog's text as the picture draws it: no markup, no emoji (its font has none)."""
    text = html.unescape(TAG.sub("", text))
    kept = (c for c in text if unicodedata.category(c) != "So" and c != "\ufe0f")
    return " ".join("".join(kept).split())


def profile_card(reader: Reader, args: dict[str, Any]) -> ProfileCard:
    """The card's words in the reader's language."""
    lang = reader.language

    def number(value: float) -> str:
        return decimal(lang, round(value, 1))

    stats = tuple(Stat(number(args[f]), t(lang, f"profile.figure.{f}")) for f in FIGURES)
    ratings = tuple(
        RatingLine(
            plain(t(lang, f"me.kind.{row['family']}.{row['pool']}")),
            f"{number(row['mu'])} ± {number(row['sigma'])}",
            t(lang, "profile.cautious", rating=number(row["rating"]), count=row["games"]),
        )
        for row in args["ratings"]
    )
    sections = []
    for row in args.get("moments", ()):
        lines = tuple(plain(line) for line in moment_lines(lang, row))
        if lines:
            sections.append(Section(plain(t(lang, f"top.family.{row['family']}")), lines))
    earned = list(args.get("achievements", ()))
    if earned:  # how many of the list, and each one earned
        lines = tuple(plain(line) for line in record_lines(reader, earned))
        sections.append(Section(t(lang, "profile.achievements"), lines))
    return ProfileCard(
        name=reader.name(args["player"].id),
        subtitle=plain(t(lang, "me.title")),
        stats=stats,
        empty=None if args["ratings"] else plain(t(lang, "me.none")),
        ratings_title=t(lang, "profile.ratings"),
        ratings=ratings,
        sections=tuple(sections),
        footer=plain(t(lang, "me.explain")),
    )
