"""A person's record as a picture (PNG, Pillow): the profile card of /me. A band with their
name, four tiles (rated games, wins, accusations right and wrong), each rating as μ ± σ
with its cautious estimate and games, the notebook against the accusation per family, the
achievements when there are some, and how a rating reads. Every word comes in the
`ProfileCard`, already in the reader's language (DejaVu Sans draws Cyrillic too)."""

from __future__ import annotations

import io
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.render.board_picture import Font, fit, load_font, wrap

WIDTH = 960
MARGIN = 32
BAND = 124  # the name's band
TILE_HEIGHT, TILE_GAP = 118, 16
RATING_ROW = 70
LINE = 30  # a line of text in a section
TALLEST = 2400  # drawn on this much, then cut to what was drawn

Colour = tuple[int, int, int]
PAPER: Colour = (255, 255, 255)
NIGHT: Colour = (30, 36, 56)
MOON: Colour = (206, 214, 232)
TILE: Colour = (243, 245, 249)
ZEBRA: Colour = (248, 249, 252)
INK: Colour = (30, 36, 48)
FAINT: Colour = (96, 104, 120)
GOLD: Colour = (196, 140, 16)
GREEN: Colour = (46, 139, 64)
RED: Colour = (196, 44, 44)
RULE: Colour = (206, 211, 221)
TILE_INK = (INK, GOLD, GREEN, RED)  # games, wins, right, wrong


@dataclass(frozen=True)
class Stat:
    value: str
    label: str


@dataclass(frozen=True)
class RatingLine:
    """A rating: what it rates, "μ ± σ", and its cautious estimate with its games."""

    kind: str
    value: str
    note: str


@dataclass(frozen=True)
class Section:
    title: str
    lines: tuple[str, ...]


@dataclass(frozen=True)
class ProfileCard:
    """The card's words: `empty` stands instead of the figures for someone with no rated
    game; `sections` follow the ratings (the notebook per family, the achievements)."""

    name: str
    subtitle: str
    stats: tuple[Stat, ...]
    empty: str | None
    ratings_title: str
    ratings: tuple[RatingLine, ...]
    sections: tuple[Section, ...]
    footer: str


@lru_cache(maxsize=64)  # a person asking /me again, their record unchanged, costs nothing
def card_png(card: ProfileCard) -> bytes:
    """The card as a palette PNG, WIDTH wide and as tall as its contents."""
    image = Image.new("RGB", (WIDTH, TALLEST), PAPER)
    draw = ImageDraw.Draw(image)
    inner = WIDTH - 2 * MARGIN
    draw.rectangle((0, 0, WIDTH - 1, BAND - 1), fill=NIGHT)
    name_font = load_font(40, bold=True)
    draw.text((MARGIN, 26), fit(card.name, name_font, inner), fill=PAPER, font=name_font)
    small = load_font(22)
    draw.text((MARGIN, 80), fit(card.subtitle, small, inner), fill=MOON, font=small)
    y = BAND + MARGIN
    if card.empty is not None:
        empty = load_font(24)
        y = _lines(draw, wrap(card.empty, empty, inner), y, empty, INK, LINE + 2) + MARGIN // 2
    else:
        y = _tiles(draw, card.stats, y) + MARGIN
        if card.ratings:
            y = _heading(draw, card.ratings_title, y)
            for i, rating in enumerate(card.ratings):
                _rating(draw, rating, y, odd=i % 2 == 1)
                y += RATING_ROW
            y += MARGIN // 2
    for section in card.sections:
        y = _heading(draw, section.title, y)
        text = load_font(21)
        for line in section.lines:
            y = _lines(draw, wrap(line, text, inner), y, text, INK, LINE)
        y += MARGIN // 2
    draw.line((MARGIN, y, WIDTH - MARGIN, y), fill=RULE, width=1)
    note = load_font(17)
    y = _lines(draw, wrap(card.footer, note, inner), y + 12, note, FAINT, 24) + MARGIN - 12
    picture = image.crop((0, 0, WIDTH, min(y, TALLEST)))
    palette = picture.quantize(colors=256, method=Image.Quantize.FASTOCTREE)
    out = io.BytesIO()
    palette.save(out, format="PNG", compress_level=6)
    return out.getvalue()


def _tiles(draw: ImageDraw.ImageDraw, stats: tuple[Stat, ...], top: int) -> int:
    """The figures side by side, each a big number over its label; the bottom edge."""
    count = max(len(stats), 1)
    width = (WIDTH - 2 * MARGIN - TILE_GAP * (count - 1)) // count
    number, label = load_font(44, bold=True), load_font(18)
    for i, stat in enumerate(stats):
        left = MARGIN + i * (width + TILE_GAP)
        box = (left, top, left + width - 1, top + TILE_HEIGHT - 1)
        draw.rounded_rectangle(box, radius=12, fill=TILE)
        centre = left + width // 2
        ink = TILE_INK[i % len(TILE_INK)]
        draw.text((centre, top + 38), stat.value, fill=ink, font=number, anchor="mm")
        for j, line in enumerate(wrap(stat.label, label, width - 16)[:2]):
            draw.text((centre, top + 80 + j * 22), line, fill=FAINT, font=label, anchor="mm")
    return top + TILE_HEIGHT


def _heading(draw: ImageDraw.ImageDraw, title: str, top: int) -> int:
    heading = load_font(24, bold=True)
    draw.text((MARGIN, top), fit(title, heading, WIDTH - 2 * MARGIN), fill=INK, font=heading)
    draw.line((MARGIN, top + 36, WIDTH - MARGIN, top + 36), fill=RULE, width=2)
    return top + 46


def _rating(draw: ImageDraw.ImageDraw, rating: RatingLine, top: int, odd: bool) -> None:
    """One rating's row: what it rates on the left, the figures on the right."""
    if odd:
        draw.rectangle((MARGIN, top, WIDTH - MARGIN - 1, top + RATING_ROW - 1), fill=ZEBRA)
    value, note = load_font(28, bold=True), load_font(17)
    right = WIDTH - MARGIN - 10
    room = int(
        right - MARGIN - 20 - max(value.getlength(rating.value), note.getlength(rating.note))
    )
    kind = load_font(21, bold=True)
    lines = wrap(rating.kind, kind, max(room, 120))[:2]
    middle = top + RATING_ROW // 2
    for j, line in enumerate(lines):
        y = middle + (j - (len(lines) - 1) / 2) * 26
        draw.text((MARGIN + 10, y), line, fill=INK, font=kind, anchor="lm")
    draw.text((right, top + 24), rating.value, fill=INK, font=value, anchor="rm")
    draw.text((right, top + 54), rating.note, fill=FAINT, font=note, anchor="rm")


def _lines(
    draw: ImageDraw.ImageDraw, lines: list[str], top: int, font: Font, ink: Colour, height: int
) -> int:
    """Lines of text down the left margin; the top of the next."""
    for line in lines:
        draw.text((MARGIN, top), line, fill=ink, font=font)
        top += height
    return top
