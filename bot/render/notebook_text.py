"""A player's notebook in words (the text version, and the picture's caption): where each
card is, what is still open (with the odds when the game gives them), what follows and
why, what the player saw, and their own marks. The sheet is bot.notebook.sheet's payload."""

from __future__ import annotations

import html
from collections.abc import Sequence
from types import MappingProxyType
from typing import Any

from bot.render.reader import Reader
from bot.render.wording import join_lines, place_name
from engine.notebook.facts import ENVELOPE, FACE_UP, ROOMS
from locales import t

MAX_FACTS = 20  # the latest observations listed; older ones are in the picture's marks


def owner_name(reader: Reader, sheet: dict[str, Any], owner: int) -> str:
    """A column's name: the envelope, the face-up cards, "you" or the player."""
    if owner == ENVELOPE:
        return t(reader.language, "notebook.envelope")
    if owner == FACE_UP:
        return t(reader.language, "notebook.face_up")
    if owner == ROOMS:
        return t(reader.language, "notebook.rooms")
    user = dict((o, u) for o, u in sheet["owners"]).get(owner)
    if user == sheet["player"]:
        return t(reader.language, "notebook.you")
    return reader.mention(user) if user is not None else str(owner)


def when_text(reader: Reader, sheet: dict[str, Any], when: int) -> str:
    if when <= 0:
        return t(reader.language, "notebook.when_start")
    key = "notebook.when_turn" if sheet["table"] else "notebook.when_day"
    return t(reader.language, key, n=when)


def title(reader: Reader, args: dict[str, Any]) -> str:
    """ "📓 Cluedo club: notebook of @bob, day 2": the game, whose, and when (the title
    names the game: the message has no line of its own for it)."""
    sheet = args["sheet"]
    return t(
        reader.language,
        "notebook.title",
        place=place_name(reader.language, args),
        player=reader.mention(sheet["player"]),
        when=when_text(reader, sheet, sheet["when"]),
    )


def footer(reader: Reader, sheet: dict[str, Any]) -> str:
    level = sheet["level"]
    if level == "odds":
        return t(reader.language, "notebook.footer_odds")
    if level == "facts":
        return t(reader.language, "notebook.footer_facts")
    return ""


def caption(reader: Reader, args: dict[str, Any]) -> str:
    """The picture's caption: whose notebook, when, and what the level means."""
    return join_lines(title(reader, args), footer(reader, args["sheet"]))


def notebook_text(reader: Reader, args: dict[str, Any]) -> str:
    """The whole notebook in words."""
    sheet = args["sheet"]
    if sheet["level"] == "off":  # no title: the game's usual line names it
        place = t(reader.language, "game.place_line", place=place_name(reader.language, args))
        return join_lines(
            place, t(reader.language, "notebook.off", cards=reader.cards(sheet["hand"]))
        )
    return join_lines(
        title(reader, args),
        *_cards(reader, sheet),
        *_deductions(reader, sheet),
        *_facts(reader, sheet),
        *_marks(reader, sheet),
        footer(reader, sheet),
    )


def _cards(reader: Reader, sheet: dict[str, Any]) -> list[str]:
    lang = reader.language
    holder = {card: owner for card, owner, value in sheet["cells"] if value}
    lacking: dict[str, list[int]] = {}
    for card, owner, value in sheet["cells"]:
        if not value:
            lacking.setdefault(card, []).append(owner)
    odds: dict[str, list[tuple[int, int]]] = {}
    for card, owner, percent in sheet["odds"]:
        odds.setdefault(card, []).append((owner, percent))
    known, still = [], []
    for card in (c for category in sheet["categories"] for c in category):
        if card in holder:
            owner = owner_name(reader, sheet, holder[card])
            known.append(t(lang, "notebook.line_known", card=reader.card(card), owner=owner))
        elif card in odds:
            parts = [
                t(lang, "notebook.odds_part", owner=owner_name(reader, sheet, o), percent=p)
                for o, p in sorted(odds[card], key=lambda op: -op[1])
            ]
            still.append(
                t(lang, "notebook.line_odds", card=reader.card(card), odds=", ".join(parts))
            )
        elif card in lacking:
            names = ", ".join(owner_name(reader, sheet, o) for o in lacking[card])
            still.append(t(lang, "notebook.line_open", card=reader.card(card), lacking=names))
        else:
            still.append(t(lang, "notebook.line_open_none", card=reader.card(card)))
    lines = [t(lang, "notebook.section_known"), *known] if known else []
    return lines + ([t(lang, "notebook.section_open"), *still] if still else [])


def _deductions(reader: Reader, sheet: dict[str, Any]) -> list[str]:
    if not sheet["deductions"]:
        return []
    lines = [t(reader.language, "notebook.section_deductions")]
    for group in sheet["deductions"]:
        cells = "; ".join(cell_phrases(reader, sheet, group["cells"]))
        why = reasons(reader, sheet, group["why"])
        lines.append("• " + t(reader.language, "notebook.because", cells=cells, reasons=why))
    return lines


def cell_phrases(
    reader: Reader, sheet: dict[str, Any], cells: Sequence[Sequence[Any]]
) -> list[str]:
    """Cells as sentences, one per owner and truth: "Bob holds none of Rope, Hall"."""
    lang = reader.language
    grouped: dict[tuple[int, int], list[str]] = {}
    for card, owner, value in cells:
        grouped.setdefault((owner, value), []).append(card)
    phrases = []
    for (owner, value), cards in grouped.items():
        names = reader.cards(cards)
        if owner == ENVELOPE:
            key = "notebook.in_envelope" if value else "notebook.not_in_envelope"
            phrases.append(t(lang, key, cards=names))
        else:
            key = "notebook.holds" if value else "notebook.lacks"
            phrases.append(t(lang, key, owner=owner_name(reader, sheet, owner), cards=names))
    return phrases


def reasons(reader: Reader, sheet: dict[str, Any], sources: Sequence[dict[str, Any]]) -> str:
    """Why, in words: each observation the conclusion rests on."""
    lang = reader.language
    said = [source_text(reader, sheet, s) for s in sources]
    if not said:
        said = [t(lang, "notebook.why.deal")]
    return t(lang, "notebook.reasons_joiner").join(said)


def source_text(reader: Reader, sheet: dict[str, Any], source: dict[str, Any]) -> str:
    user = source.get("user")
    return t(
        reader.language,
        f"notebook.why.{source['kind']}",
        player=reader.mention(user) if user is not None else "",
        cards=reader.cards(list(source["cards"])),
        when=when_text(reader, sheet, int(source["when"])),
    )


def _facts(reader: Reader, sheet: dict[str, Any]) -> list[str]:
    facts = sheet["facts"][-MAX_FACTS:]
    if not facts:
        return []
    lines = [t(reader.language, "notebook.section_facts")]
    return lines + ["• " + source_text(reader, sheet, s) for s in facts]


def _marks(reader: Reader, sheet: dict[str, Any]) -> list[str]:
    if not sheet["own"]:
        return []
    lang = reader.language
    lines = [t(lang, "notebook.section_marks")]
    for card, owner, mark, note in sheet["own"]:
        said = mark_word(lang, mark) if mark else ""
        shown = " — ".join(part for part in (said, html.escape(note or "")) if part)
        lines.append(
            t(
                lang,
                "notebook.line_mark",
                card=reader.card(card),
                owner=owner_name(reader, sheet, owner),
                mark=shown,
            )
        )
    return lines


def mark_word(language: str, mark: str) -> str:
    """A mark as shown: the first of the words people may type for it."""
    return t(language, f"notebook.mark_{mark}").split(",")[0].strip()


def mark_said(reader: Reader, args: dict[str, Any]) -> str:
    """The answer to /mark: the cell and the mark now on it."""
    cell = args["cell"]
    owners = {"owners": args["owners"], "player": args["player"]}
    said = mark_word(reader.language, cell["mark"]) if cell["mark"] else ""
    note = html.escape(cell.get("note") or "")
    return t(
        reader.language,
        "notebook.mark_saved" if cell["mark"] else "notebook.mark_cleared",
        card=reader.card(cell["card"]),
        owner=owner_name(reader, owners, int(cell["owner"])),
        mark=" — ".join(part for part in (said, note) if part),
    )


NOTEBOOK_COMPOSERS = MappingProxyType(
    {
        "notebook.text": notebook_text,
        "notebook.picture": caption,
        "notebook.mark_saved": mark_said,
        "notebook.mark_cleared": mark_said,
    }
)
