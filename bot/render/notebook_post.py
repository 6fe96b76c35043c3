"""A notebook post: the sheet drawn as a grid in the reader's words (the text its
caption); when the picture cannot be drawn, the whole notebook in words instead."""

from __future__ import annotations

import html
import logging
import unicodedata
from types import MappingProxyType
from typing import Any

from bot.render.notebook_grid import Cell, Flag, Grid, LegendKey, Mark, Row, Section
from bot.render.notebook_picture import notebook_png
from bot.render.notebook_text import notebook_text, when_text
from bot.render.reader import Reader
from bot.render.wording import place_name
from engine.cards import CATEGORY_ORDER
from engine.notebook.facts import ENVELOPE, FACE_UP, ROOMS
from locales import t

log = logging.getLogger(__name__)

OWN_MARKS = MappingProxyType({"yes": Mark.OWN_YES, "no": Mark.OWN_NO, "maybe": Mark.OWN_MAYBE})


def notebook_post(reader: Reader, args: dict[str, Any], caption: str) -> tuple[str, bytes | None]:
    """The caption and the picture; the text alone if drawing fails."""
    try:
        return caption, notebook_png(
            notebook_grid(reader, args["sheet"], place_name(reader.language, args))
        )
    except Exception:  # a font or Pillow problem: the player still gets their notebook
        log.exception("notebook picture could not be drawn; sent as text")
        return notebook_text(reader, args), None


def column_name(reader: Reader, sheet: dict[str, Any], owner: int, user: int | None) -> str:
    """A column's plain name (no markup: the picture draws it)."""
    lang = reader.language
    if owner == ENVELOPE:
        return t(lang, "notebook.envelope")
    if owner == FACE_UP:
        return t(lang, "notebook.face_up")
    if owner == ROOMS:
        return t(lang, "notebook.rooms")
    if user == sheet["player"]:
        return t(lang, "notebook.you")
    return reader.name(user) if user is not None else t(lang, "person.unknown")


def notebook_grid(reader: Reader, sheet: dict[str, Any], place: str) -> Grid:
    """The sheet as the picture's grid, every word in the reader's language; `place` names
    its game (escaped, as `wording.place_name` gives it)."""
    lang = reader.language
    owners = [int(owner) for owner, _ in sheet["owners"]]
    settled = {(card, owner): bool(value) for card, owner, value in sheet["cells"]}
    odds = {(card, owner): int(percent) for card, owner, percent in sheet["odds"]}
    own = {(card, owner): (mark, note) for card, owner, mark, note in sheet["own"]}
    hand = set(sheet["hand"])
    seen = set(sheet.get("seen", ()))
    sections = []
    for category, cards in zip(CATEGORY_ORDER, sheet["categories"], strict=False):
        rows = []
        for card in cards:
            cells = tuple(
                _cell(card, o, settled, odds, own, card in hand, card in seen) for o in owners
            )
            solved = settled.get((card, ENVELOPE)) is True
            rows.append(Row(reader.card_name(card), cells, solved=solved))
        sections.append(Section(t(lang, f"category.{category.value}"), tuple(rows)))
    columns = tuple(column_name(reader, sheet, int(o), u) for o, u in sheet["owners"])
    legend: list[tuple[LegendKey, str]] = [
        (Mark.HAS, t(lang, "notebook.legend_has")),
        (Mark.LACKS, t(lang, "notebook.legend_lacks")),
        (Flag.OWN_HAND, t(lang, "notebook.legend_own_hand")),
        (Flag.SEEN, t(lang, "notebook.legend_seen")),
        (Flag.SOLVED, t(lang, "notebook.legend_solved")),
    ]
    if sheet["own"]:  # the pencil marks are explained once there are some
        legend += [
            (Mark.OWN_YES, t(lang, "notebook.legend_own_yes")),
            (Mark.OWN_NO, t(lang, "notebook.legend_own_no")),
            (Mark.OWN_MAYBE, t(lang, "notebook.legend_own_maybe")),
        ]
    return Grid(
        title=_plain_title(reader, sheet, place),
        columns=columns,
        envelope_column=owners.index(ENVELOPE),
        sections=tuple(sections),
        legend=tuple(legend),
        footer=t(lang, "notebook.footer_odds") if sheet["level"] == "odds" else None,
    )


def _cell(
    card: str,
    owner: int,
    settled: dict[tuple[str, int], bool],
    odds: dict[tuple[str, int], int],
    own: dict[tuple[str, int], tuple[str | None, str | None]],
    in_hand: bool,
    seen: bool,
) -> Cell:
    value = settled.get((card, owner))
    mark_, note = own.get((card, owner), (None, None))
    if value is not None:
        mark = Mark.HAS if value else Mark.LACKS
    else:
        mark = OWN_MARKS.get(mark_ or "", Mark.MAYBE)
    held = value is True
    return Cell(mark, odds.get((card, owner)), note, own_hand=in_hand and held, seen=seen and held)


def _plain_title(reader: Reader, sheet: dict[str, Any], place: str) -> str:
    """The title without markup: the game, the reader's own name and the moment."""
    person = reader.people.get(sheet["player"])
    name = person.name if person is not None else t(reader.language, "person.unknown")
    when = when_text(reader, sheet, sheet["when"])
    game = html.unescape(place)
    title = t(reader.language, "notebook.title", place=game, player=name, when=when)
    # The picture's font has no emoji: the title goes without its symbols.
    return "".join(c for c in title if unicodedata.category(c) != "So").strip()
