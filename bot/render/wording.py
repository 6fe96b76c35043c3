"""Wording shared by the messages: lines of a text, cards by category, cards in a sentence
(grammatical forms), which game a private message is of, a day's length, a closed answer
prompt."""

from __future__ import annotations

import html
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from bot.render.arguments import flat_args
from bot.render.reader import Reader, duration_text
from locales import t
from locales.formats import unit_count

Composer = Callable[[Reader, dict[str, Any]], str]
"""A message's whole text in the reader's language, from its typed arguments."""


def join_lines(*parts: str) -> str:
    """The parts that are not empty, one a line."""
    return "\n".join(p for p in parts if p)


def card_lines(reader: Reader, cards: dict[str, list[str]]) -> list[str]:
    """One line per category: "Suspects: A, B, C"."""
    lang = reader.language
    return [
        t(lang, "game.cards_line", category=t(lang, f"category.{cat}"), cards=reader.cards(ids))
        for cat, ids in cards.items()
    ]


def roster_lines(reader: Reader, roster: list[dict[str, Any]]) -> list[str]:
    """One line per player: "@ann — Miss Scarlett" (each entry's `user` and `role`)."""
    return [
        t(
            reader.language,
            "game.roster_line",
            player=reader.mention(r["user"].id),
            role=reader.card(r["role"]),
        )
        for r in roster
    ]


def card_forms(reader: Reader, weapon: str, place: str) -> dict[str, str] | None:
    """ "with the weapon in the place" in the reader's grammar: the catalog's forms of the
    built-in cards; None when a card has none (a custom pack's), for a layout without."""
    forms = {
        "weapon_ins": reader.card_form(weapon, "ins"),
        "place_in": reader.card_form(place, "in"),
        "place_prep": reader.card_form(place, "prep"),
    }
    found = {name: form for name, form in forms.items() if form is not None}
    return found if len(found) == len(forms) else None


def inflected(key: str) -> Composer:
    """A sentence naming a suspect, a weapon and a place: with the cards' grammatical forms,
    or as "Suspect: X; weapon: Y; place: Z" (`key`_plain) for cards that have none."""

    def compose(reader: Reader, args: dict[str, Any]) -> str:
        f = flat_args(reader, args)
        forms = card_forms(reader, args["weapon"].id, args["place"].id)
        if forms is None:
            return t(reader.language, f"{key}_plain", **f)
        return t(reader.language, key, **f, **forms)

    return compose


def day_length_text(language: str, seconds: float) -> str:
    """A day's length as people say it: "24 hours", "36 hours", "3 days", "90 minutes"."""
    span = timedelta(seconds=seconds)
    if span <= timedelta(hours=48) and span % timedelta(hours=1) == timedelta(0):
        return unit_count(language, "hour", int(span / timedelta(hours=1)))
    return duration_text(language, span)


def place_name(language: str, args: dict[str, Any]) -> str:
    """Which game, as people know it: "Title · Topic" (escaped), else "Game 12"."""
    label = args.get("game_label")
    if label:
        return html.escape(str(label))
    return t(language, "game.unnamed", game=args.get("game", "?"))


def prompt_closed(reader: Reader, args: dict[str, Any]) -> str:
    """An answer prompt once it is closed: the suggestion still, and how it ended."""
    f = flat_args(reader, args)
    if "outcome" not in args:  # written before prompts kept their content
        return t(reader.language, "dm.prompt_closed", **f)
    head = t(reader.language, "dm.prompt_suggestion", **f)
    return head + "\n" + t(reader.language, f"dm.prompt_{args['outcome']}", **f)
