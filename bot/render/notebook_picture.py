"""The detective's notebook as a picture (PNG, Pillow): a grid of cards against owners,
sized for a phone (at most 1280 pixels wide, about that tall), with its legend under it.

`layout` places everything (and `cell_boxes` tells where each cell is); `notebook_png` draws.
Every word comes in the `Grid`; a cell's drawing is cached by what it shows."""

from __future__ import annotations

import io
import math
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType

from PIL import Image, ImageDraw

from bot.render.board_picture import Font, Rect, fit, load_font, wrap
from bot.render.notebook_grid import Cell, Flag, Grid, LegendKey, Mark, Row

MAX_SIDE = 1280  # what Telegram keeps of a photo's longer side
MARGIN = 14
ROW_MIN, ROW_MAX = 24, 34  # a card's row, in pixels
COLUMN_MIN, COLUMN_MAX = 64, 124
LABEL_MIN, LABEL_MAX = 150, 300  # the card names' column
HEADING = 28  # a section's title band
TITLE = 38
DIAGONAL = 170  # the longest line of a slanted column name
LEGEND_SWATCH = 44
GAP = 3  # between the pieces of text in a cell
ROOM = 16  # a cell's width less what its text may take
SIZES = MappingProxyType({"title": 24, "label": 20, "name": 18, "percent": 15, "note": 13})

Colour = tuple[int, int, int]
PAPER: Colour = (255, 255, 255)
ZEBRA: Colour = (243, 245, 249)
ENVELOPE: Colour = (255, 242, 208)
ENVELOPE_ZEBRA: Colour = (250, 234, 194)
SOLVED: Colour = (255, 214, 110)
HEADING_BAND: Colour = (226, 232, 242)
LINE: Colour = (206, 211, 221)
RULE: Colour = (110, 120, 140)
INK: Colour = (30, 36, 48)
FAINT: Colour = (96, 104, 120)
GREEN: Colour = (46, 139, 64)
DEEP_GREEN: Colour = (20, 92, 44)
GOLD: Colour = (250, 196, 40)
RED: Colour = (196, 44, 44)
PENCIL: Colour = (36, 92, 214)
PENCIL_FILL: Colour = (234, 241, 255)
HEAT: Colour = (255, 138, 48)
ENVELOPE_INK: Colour = (150, 88, 0)
ENVELOPE_RULE: Colour = (214, 168, 60)
GLYPHS = MappingProxyType(
    {
        Mark.HAS: "✔",
        Mark.LACKS: "✘",
        Mark.MAYBE: "",
        Mark.OWN_YES: "✓",
        Mark.OWN_NO: "✗",
        Mark.OWN_MAYBE: "?",
    }
)
SIN45 = math.sqrt(0.5)


@dataclass(frozen=True)
class Layout:
    """Where each part of the picture goes, in pixels (left, top, right, bottom boxes, the
    right and bottom edges excluded, as `Image.crop` takes them). `labels` (the card names)
    and `cells` follow `Grid.rows`; `header` is the band of the column names."""

    size: tuple[int, int]
    label_width: int
    row_height: int
    column_width: int
    slanted: bool  # the column names run diagonally (they did not fit level)
    names: tuple[tuple[str, ...], ...]  # each column's name as drawn, in lines
    header: Rect
    headings: tuple[Rect, ...]  # each section's title band
    labels: tuple[Rect, ...]
    cells: tuple[tuple[Rect, ...], ...]
    legend: tuple[tuple[int, int], ...]  # each legend entry's top left corner
    footer: tuple[str, ...]  # the footer's lines
    footer_top: int


def font(kind: str, bold: bool = False) -> Font:
    """The cached font for one kind of text (`SIZES`)."""
    return load_font(SIZES[kind], bold)


def _line_height(kind: str) -> int:
    return SIZES[kind] + 5


def _level_names(grid: Grid, width: int) -> tuple[tuple[str, ...], ...] | None:
    """The column names in at most two level lines each, or None when one would be cut."""
    names = []
    for name in grid.columns:
        lines = wrap(name, font("name", bold=True), width)
        if len(lines) > 2 or " ".join(lines) != " ".join(name.split()):
            return None
        names.append(tuple(lines))
    return tuple(names)


def _slanted_names(grid: Grid) -> tuple[tuple[str, ...], ...]:
    """The column names in at most two slanted lines each, the rest cut."""
    names = []
    for name in grid.columns:
        lines = wrap(name, font("name", bold=True), DIAGONAL)
        if len(lines) > 2:
            lines = [lines[0], fit(" ".join(lines[1:]), font("name", bold=True), DIAGONAL)]
        names.append(tuple(lines) or ("",))
    return tuple(names)


def _block(lines: tuple[str, ...]) -> tuple[int, int]:
    """Width and height of a column name's lines."""
    widths = [font("name", bold=True).getlength(line) for line in lines]
    return int(max(widths, default=0)) + 2, _line_height("name") * len(lines)


def _legend_places(grid: Grid, top: int, width: int, row: int) -> tuple[tuple[int, int], ...]:
    """The legend entries flowed into lines across the picture."""
    places = []
    x, y = MARGIN, top
    for _, text in grid.legend:
        needed = LEGEND_SWATCH + 8 + int(font("label").getlength(text)) + 22
        if x > MARGIN and x + needed > width - MARGIN:
            x, y = MARGIN, y + row + 6
        places.append((x, y))
        x += needed
    return tuple(places)


@lru_cache(maxsize=16)
def layout(grid: Grid) -> Layout:
    """Where everything of the grid's picture goes."""
    rows = grid.rows
    label_font = font("label", bold=True)
    widest = max((label_font.getlength(row.label) for row in rows), default=0)
    label_width = min(max(int(widest) + 16, LABEL_MIN), LABEL_MAX)
    spare = (MAX_SIDE - 2 * MARGIN - label_width) // max(len(grid.columns), 1)
    column = min(max(spare, COLUMN_MIN), COLUMN_MAX)
    width = 2 * MARGIN + label_width + column * len(grid.columns)
    level = _level_names(grid, column - 8)
    names = level if level is not None else _slanted_names(grid)
    if level is not None:
        header_height = max(len(lines) for lines in names) * _line_height("name") + 10
    else:
        blocks = [_block(lines) for lines in names]
        header_height = max(int((w + h) * SIN45) for w, h in blocks) + 12
    footer_width = width - 2 * MARGIN
    footer = tuple(wrap(grid.footer, font("percent"), footer_width)) if grid.footer else ()
    fixed = MARGIN + TITLE + header_height + HEADING * len(grid.sections) + 2 * MARGIN
    fixed += (_line_height("percent") * len(footer)) + (2 * (ROW_MIN + 6) if grid.legend else 0)
    row_height = min(max((MAX_SIDE - fixed) // max(len(rows), 1), ROW_MIN), ROW_MAX)
    top = MARGIN + TITLE
    header = (MARGIN, top, width - MARGIN, top + header_height)
    y = header[3]
    left = MARGIN + label_width
    headings, labels, cells = [], [], []
    for section in grid.sections:
        headings.append((MARGIN, y, width - MARGIN, y + HEADING))
        y += HEADING
        for _ in section.rows:
            labels.append((MARGIN, y, left, y + row_height))
            cells.append(
                tuple(
                    (left + i * column, y, left + (i + 1) * column, y + row_height)
                    for i in range(len(grid.columns))
                )
            )
            y += row_height
    legend = _legend_places(grid, y + MARGIN, width, row_height)
    if legend:
        y = legend[-1][1] + row_height
    footer_top = y + MARGIN // 2
    height = footer_top + _line_height("percent") * len(footer) + MARGIN
    return Layout(
        size=(width, height),
        label_width=label_width,
        row_height=row_height,
        column_width=column,
        slanted=level is None,
        names=names,
        header=header,
        headings=tuple(headings),
        labels=tuple(labels),
        cells=tuple(cells),
        legend=legend,
        footer=footer,
        footer_top=footer_top,
    )


def cell_boxes(grid: Grid) -> tuple[tuple[Rect, ...], ...]:
    """Each cell's box, row by row (`Grid.rows`), column by column."""
    return layout(grid).cells


def notebook_png(grid: Grid) -> bytes:
    """The grid as a palette PNG."""
    places = layout(grid)
    image = Image.new("RGB", places.size, PAPER)
    draw = ImageDraw.Draw(image)
    title_font = font("title", bold=True)
    title = fit(grid.title, title_font, places.size[0] - 2 * MARGIN)
    draw.text((MARGIN, MARGIN + TITLE // 2 - 4), title, fill=INK, font=title_font, anchor="lm")
    _header(image, draw, grid, places)
    rows = zip(grid.rows, places.labels, places.cells, strict=True)
    for section, band in zip(grid.sections, places.headings, strict=True):
        draw.rectangle(band, fill=HEADING_BAND)
        heading_font = font("label", bold=True)
        heading = fit(section.title, heading_font, band[2] - band[0] - 16)
        middle = (band[1] + band[3]) // 2
        draw.text((band[0] + 8, middle), heading, fill=INK, font=heading_font, anchor="lm")
        for number, (row, label, boxes) in zip(range(len(section.rows)), rows, strict=False):
            _row(image, draw, grid, row, number % 2 == 1, label, boxes)
        _lines(draw, grid, places, band[3], band[3] + places.row_height * len(section.rows))
    _legend(image, draw, grid, places)
    for i, line in enumerate(places.footer):
        y = places.footer_top + i * _line_height("percent")
        draw.text((MARGIN, y), line, fill=FAINT, font=font("percent"))
    small = image.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    out = io.BytesIO()
    small.save(out, format="PNG", compress_level=6)  # 9: a fifth smaller, 5x slower
    return out.getvalue()


def _header(image: Image.Image, draw: ImageDraw.ImageDraw, grid: Grid, places: Layout) -> None:
    """The owners' names over their columns, level or slanted, the envelope's tinted."""
    left, top, right, bottom = places.header
    left += places.label_width
    column = places.column_width
    envelope = left + grid.envelope_column * column
    draw.rectangle((envelope, top, envelope + column - 1, bottom), fill=ENVELOPE)
    name_font = font("name", bold=True)
    height = _line_height("name")
    for i, lines in enumerate(places.names):
        colour = ENVELOPE_INK if i == grid.envelope_column else INK
        centre = left + i * column + column // 2
        if not places.slanted:
            for j, line in enumerate(reversed(lines)):
                y = bottom - 6 - j * height - height // 2
                draw.text((centre, y), line, fill=colour, font=name_font, anchor="mm")
            continue
        mask = _slanted(lines)
        width, depth = _block(lines)
        x = centre - int(width * SIN45 + depth * SIN45 / 2)
        y = bottom - 6 - mask.size[1]
        image.paste(colour, (x, y, x + mask.size[0], y + mask.size[1]), mask)
    draw.line((places.header[0], bottom - 1, right - 1, bottom - 1), fill=RULE, width=2)


@lru_cache(maxsize=256)
def _slanted(lines: tuple[str, ...]) -> Image.Image:
    """A column name's lines, right-aligned, turned to run down to the right at 45 degrees."""
    width, height = _block(lines)
    mask = Image.new("L", (width, height), 0)
    draw = ImageDraw.Draw(mask)
    name_font = font("name", bold=True)
    for j, line in enumerate(lines):
        x = width - 1 - name_font.getlength(line)
        draw.text((x, j * _line_height("name") + 2), line, fill=255, font=name_font)
    return mask.rotate(-45, resample=Image.Resampling.BICUBIC, expand=True)


def _row(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    grid: Grid,
    row: Row,
    odd: bool,
    label: Rect,
    boxes: tuple[Rect, ...],
) -> None:
    """One card's row: its name, then its cells."""
    draw.rectangle((label[0], label[1], label[2] - 1, label[3] - 1), fill=_band(row, odd))
    label_font = font("label", bold=row.solved)
    text = fit(row.label, label_font, label[2] - label[0] - 12)
    middle = (label[1] + label[3]) // 2
    draw.text((label[0] + 8, middle), text, fill=INK, font=label_font, anchor="lm")
    for i, (cell, box) in enumerate(zip(row.cells, boxes, strict=True)):
        background = _band(row, odd, envelope=i == grid.envelope_column)
        image.paste(_tile(cell, box[2] - box[0], box[3] - box[1], background), box[:2])


def _band(row: Row, odd: bool, envelope: bool = False) -> Colour:
    """A row's background: solved, or striped (the envelope's column in its own tint)."""
    if row.solved:
        return SOLVED
    if envelope:
        return ENVELOPE_ZEBRA if odd else ENVELOPE
    return ZEBRA if odd else PAPER


def _lines(draw: ImageDraw.ImageDraw, grid: Grid, places: Layout, top: int, bottom: int) -> None:
    """A section's rules: under each row, between the columns."""
    left = places.header[0] + places.label_width
    right = places.header[2] - 1
    for y in range(top + places.row_height - 1, bottom, places.row_height):
        draw.line((places.header[0], y, right, y), fill=LINE)
    for i in range(len(grid.columns) + 1):
        x = min(left + i * places.column_width, right)
        rim = i in (grid.envelope_column, grid.envelope_column + 1)
        draw.line((x, top, x, bottom - 1), fill=RULE if i == 0 else ENVELOPE_RULE if rim else LINE)


@lru_cache(maxsize=4096)
def _tile(cell: Cell, width: int, height: int, background: Colour) -> Image.Image:
    """One cell as drawn: its mark's glyph and colours, its odds with a heat tint, its note."""
    tile = Image.new("RGB", (width, height), background)
    draw = ImageDraw.Draw(tile)
    inner = (4, 2, width - 5, height - 5)
    percent = cell.shown_percent
    ink, note_ink = INK, PENCIL
    if cell.mark is Mark.HAS:
        fill = DEEP_GREEN if cell.own_hand else GREEN
        draw.rounded_rectangle(
            inner, radius=5, fill=fill, outline=GOLD if cell.own_hand else None, width=2
        )
        ink = note_ink = PAPER
        if cell.seen:
            draw.ellipse((inner[2] - 11, inner[1] + 3, inner[2] - 3, inner[1] + 11), fill=GOLD)
    elif cell.mark.own:
        fill = PENCIL_FILL if percent is None else _heat(percent, PENCIL_FILL)
        draw.rounded_rectangle(inner, radius=5, fill=fill, outline=PENCIL, width=2)
        ink = PENCIL
    elif percent is not None and percent > 0:
        draw.rounded_rectangle(inner, radius=5, fill=_heat(percent, background))
    if cell.mark is Mark.LACKS:
        ink = RED
    mark_font = load_font(min(20, height - 6), bold=True)  # within the pill of a short row
    glyph = [(GLYPHS[cell.mark], mark_font, ink)] if GLYPHS[cell.mark] else []
    odds = [(f"{percent}%", font("percent"), INK)] if percent is not None else []
    note = [(cell.note, font("note", bold=True), note_ink)] if cell.note else []
    if note and odds and _span(glyph + odds + note) > width - ROOM:
        odds = []  # the player's own note before the odds
    _centre(draw, glyph + odds + note, width, height)
    return tile


Piece = tuple[str, Font, Colour]  # a text, its font and its colour


def _span(pieces: list[Piece]) -> float:
    """The width of pieces of text side by side."""
    return sum(piece[1].getlength(piece[0]) + GAP for piece in pieces) - GAP


def _centre(draw: ImageDraw.ImageDraw, pieces: list[Piece], width: int, height: int) -> None:
    """Pieces of text side by side, centred in the cell; the last is cut when too long."""
    if pieces and _span(pieces) > width - ROOM:
        text, last, colour = pieces[-1]
        room = width - ROOM - _span(pieces[:-1]) - GAP
        pieces[-1] = (fit(text, last, max(int(room), 8)), last, colour)
    x = (width - _span(pieces)) / 2
    for text, text_font, colour in pieces:
        draw.text((x, height / 2 - 1), text, fill=colour, font=text_font, anchor="lm")
        x += text_font.getlength(text) + GAP


def _heat(percent: int, base: Colour) -> Colour:
    """The base tinted towards orange by the odds, in steps of ten percent."""
    share = 0.06 + 0.05 * round(percent / 10)
    r, g, b = (round(c + (h - c) * share) for c, h in zip(base, HEAT, strict=True))
    return r, g, b


def _legend(image: Image.Image, draw: ImageDraw.ImageDraw, grid: Grid, places: Layout) -> None:
    """Each legend entry: a sample cell, then its words."""
    height = places.row_height
    for (key, text), (x, y) in zip(grid.legend, places.legend, strict=True):
        image.paste(_swatch(key, height), (x, y))
        draw.rectangle((x, y, x + LEGEND_SWATCH - 1, y + height - 1), outline=LINE)
        middle = y + height // 2
        draw.text((x + LEGEND_SWATCH + 8, middle), text, fill=INK, font=font("label"), anchor="lm")


def _swatch(key: LegendKey, height: int) -> Image.Image:
    """The sample cell of a legend entry."""
    if isinstance(key, Mark):
        return _tile(Cell(key), LEGEND_SWATCH, height, PAPER)
    if key is Flag.OWN_HAND:
        return _tile(Cell(Mark.HAS, own_hand=True), LEGEND_SWATCH, height, PAPER)
    if key is Flag.SEEN:
        return _tile(Cell(Mark.HAS, seen=True), LEGEND_SWATCH, height, PAPER)
    colour = SOLVED if key is Flag.SOLVED else ENVELOPE
    return Image.new("RGB", (LEGEND_SWATCH, height), colour)
