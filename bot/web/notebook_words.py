"""A notebook sheet (bot.notebook.sheet) as the Mini App shows it: plain words in the reader's
language for every title, column, card, reason and legend entry, and the state of each cell,
so the page itself holds no words. Text is plain (markup stripped): the page sets it as
text, never as HTML."""

from __future__ import annotations

import html
import re
from typing import Any

from bot.render.notebook_post import column_name
from bot.render.notebook_text import (
    cell_phrases,
    footer,
    mark_word,
    reasons,
    source_text,
    when_text,
)
from bot.render.reader import Reader
from engine.cards import CATEGORY_ORDER
from engine.notebook.facts import ENVELOPE
from locales import t
from storage.notebooks import MARKS, MAX_NOTE

TAG = re.compile(r"<[^>]*>")
MAX_FACTS = 60  # the latest observations the page lists

Json = dict[str, Any]


def plain(text: str) -> str:
    """Catalog or rendered HTML as plain text."""
    return html.unescape(TAG.sub("", text)).strip()


def cell_of(sheet: Json, card: str, owner: int) -> Json:
    """One cell: settled ("has", "lacks") or "open" (with the odds when the game gives them),
    and the player's own mark and note."""
    return _cell(_Lookup(sheet), card, owner)


class _Lookup:
    """A sheet's cells by (card, owner)."""

    def __init__(self, sheet: Json) -> None:
        self.settled = {(c, int(o)): bool(v) for c, o, v in sheet["cells"]}
        self.odds = {(c, int(o)): int(p) for c, o, p in sheet["odds"]}
        self.own = {(c, int(o)): (m, n) for c, o, m, n in sheet["own"]}
        self.hand = set(sheet["hand"])
        self.you = next((int(o) for o, u in sheet["owners"] if u == sheet["player"]), None)


def _cell(lookup: _Lookup, card: str, owner: int) -> Json:
    settled = lookup.settled.get((card, owner))
    if settled is None and owner == lookup.you and card in lookup.hand:
        settled = True  # the player's own hand, at every level of help
    mark, note = lookup.own.get((card, owner), (None, None))
    state = "open" if settled is None else ("has" if settled else "lacks")
    percent = lookup.odds.get((card, owner)) if state == "open" else None
    return {"owner": owner, "state": state, "percent": percent, "mark": mark, "note": note}


def page_of(reader: Reader, sheet: Json, game_id: int, place: str) -> Json:
    """The whole page: title, columns, sections of rows of cells, what follows and why, what
    the player saw, the legend and the words of the mark editor."""
    lang = reader.language
    owners = [int(owner) for owner, _ in sheet["owners"]]
    lookup = _Lookup(sheet)
    seen = set(sheet.get("seen", ()))
    sections = []
    for category, cards in zip(CATEGORY_ORDER, sheet["categories"], strict=False):
        rows = [
            {
                "card": card,
                "name": reader.card_name(card),
                "hand": card in sheet["hand"],
                "seen": card in seen,
                "solved": lookup.settled.get((card, ENVELOPE)) is True,
                "cells": [_cell(lookup, card, o) for o in owners],
            }
            for card in cards
        ]
        sections.append({"title": t(lang, f"category.{category.value}"), "rows": rows})
    return {
        "game": game_id,
        "language": lang,
        "level": sheet["level"],
        "title": title(reader, sheet, place),
        "columns": [
            {
                "owner": int(owner),
                "name": column_name(reader, sheet, int(owner), user),
                "you": user is not None and user == sheet["player"],
                "envelope": int(owner) == ENVELOPE,
            }
            for owner, user in sheet["owners"]
        ],
        "sections": sections,
        "deductions": _deductions(reader, sheet),
        "facts": [plain(source_text(reader, sheet, s)) for s in sheet["facts"][-MAX_FACTS:]],
        "legend": _legend(lang, sheet["level"]),
        "footer": plain(footer(reader, sheet)),
        "words": words(lang),
    }


def title(reader: Reader, sheet: Json, place: str) -> str:
    """ "📓 Cluedo club: notebook of Alice, turn 3": the game (`place`, escaped) and the
    reader's own name, as the picture says it."""
    person = reader.people.get(sheet["player"])
    name = person.name if person is not None else t(reader.language, "person.unknown")
    when = when_text(reader, sheet, sheet["when"])
    return plain(t(reader.language, "notebook.title", place=place, player=name, when=when))


def words(language: str) -> Json:
    """The mark editor's and the page's own words."""
    marks = {mark: mark_word(language, mark) for mark in MARKS}
    clear = t(language, "notebook.mark_clear").split(",")[0].strip()
    return {
        "marks": {**marks, "clear": clear},
        "note": t(language, "notebook.app.note"),
        "hint": t(language, "notebook.app.hint"),
        "cancel": t(language, "button.cancel"),
        "not_saved": t(language, "notebook.app.not_saved"),
        "cell": t(language, "notebook.app.cell"),
        "deductions": plain(t(language, "notebook.section_deductions")),
        "facts": plain(t(language, "notebook.section_facts")),
        "max_note": MAX_NOTE,
    }


def _deductions(reader: Reader, sheet: Json) -> list[str]:
    lines = []
    for group in sheet["deductions"]:
        cells = "; ".join(cell_phrases(reader, sheet, group["cells"]))
        why = reasons(reader, sheet, group["why"])
        lines.append(plain(t(reader.language, "notebook.because", cells=cells, reasons=why)))
    return lines


def _legend(language: str, level: str) -> list[Json]:
    entries = [
        ("has", "notebook.legend_has"),
        ("lacks", "notebook.legend_lacks"),
        ("open", "notebook.legend_unknown"),
        ("own_hand", "notebook.legend_own_hand"),
        ("seen", "notebook.legend_seen"),
        ("solved", "notebook.legend_solved"),
        ("own", "notebook.legend_own"),
    ]
    if level == "odds":
        entries.append(("odds", "notebook.legend_odds"))
    return [{"kind": kind, "text": plain(t(language, key))} for kind, key in entries]
