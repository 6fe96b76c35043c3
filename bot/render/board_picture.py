"""The board as a picture (PNG, Pillow): rooms with their names, doors, secret passages, the
corridor grid, the six suspect tokens and the weapons; small (a palette PNG) and
cached by position."""

from __future__ import annotations

import io
import logging
from collections.abc import Mapping
from functools import cache, lru_cache
from types import MappingProxyType

from PIL import Image, ImageDraw, ImageFont

from engine.board import Board, Place, Square

log = logging.getLogger(__name__)

CELL = 24  # pixels per square
MARGIN = 8
LEGEND = 46  # the strip under the board naming the tokens' colours
Rect = tuple[int, int, int, int]  # left, top, right, bottom (pixels)
Font = ImageFont.FreeTypeFont | ImageFont.ImageFont

SUSPECT_COLOURS: Mapping[str, tuple[int, int, int]] = MappingProxyType(
    {
        "scarlett": (200, 16, 46),  # scarlet
        "mustard": (225, 173, 1),  # mustard yellow
        "white": (248, 248, 244),  # white
        "green": (34, 139, 70),  # green
        "peacock": (24, 92, 190),  # peacock blue
        "plum": (125, 50, 150),  # plum purple
        "chef_white": (248, 248, 244),  # the 2023 edition's characters
        "mayor_green": (34, 139, 70),
        "solicitor_peacock": (24, 92, 190),
    }
)
ROOM_COLOURS = (
    (216, 198, 168),
    (206, 192, 218),
    (190, 216, 188),
    (222, 190, 176),
    (182, 208, 192),
    (206, 188, 158),
    (218, 182, 194),
    (202, 202, 214),
    (188, 202, 222),
)
BACKGROUND = (44, 36, 31)
CORRIDOR = (238, 216, 140)
GRID = (200, 172, 98)
WALL = (58, 44, 34)
DOOR = (164, 98, 40)
CENTRE = (92, 62, 42)
INK = (30, 26, 24)
MARKER = (250, 250, 244)
_FONT_FILES = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")  # Cyrillic as well as Latin


@cache
def load_font(size: int, bold: bool = False) -> Font:
    """DejaVu Sans when installed (it has Cyrillic); else Pillow's own font, Latin only."""
    try:
        return ImageFont.truetype(_FONT_FILES[bold], size)
    except OSError:
        log.warning("board picture: %s not found, Cyrillic names will not show", _FONT_FILES[0])
        return ImageFont.load_default(size=size)


def board_png(
    board: Board,
    tokens: Mapping[str, Place],
    weapons: Mapping[str, str],
    names: Mapping[str, str],
) -> bytes:
    """The board with suspect tokens at their places (a room key or a corridor square) and
    weapons in their rooms, labelled with `names` (card id -> name in the reader's
    language). The same position gives the same (cached) bytes."""
    return _png(
        board,
        tuple(sorted(tokens.items())),
        tuple(sorted(weapons.items())),
        tuple(sorted(names.items())),
    )


def picture_size(board: Board) -> tuple[int, int]:
    """Width and height of the board's picture in pixels."""
    return board.width * CELL + 2 * MARGIN, board.height * CELL + 2 * MARGIN + LEGEND


@lru_cache(maxsize=128)
def _png(
    board: Board,
    tokens: tuple[tuple[str, Place], ...],
    weapons: tuple[tuple[str, str], ...],
    names: tuple[tuple[str, str], ...],
) -> bytes:
    image = Image.new("RGB", picture_size(board), BACKGROUND)
    draw = ImageDraw.Draw(image)
    named = dict(names)
    _corridor(draw, board)
    _rooms(draw, board)
    _centre(draw, board)
    _passages(draw, board)
    in_rooms = _corridor_tokens(draw, tokens)
    for room in board.rooms:
        _room_contents(draw, board, room, in_rooms.get(room, []), weapons, named)
    _legend(draw, board, named)
    small = image.quantize(colors=256, dither=Image.Dither.NONE)
    out = io.BytesIO()
    small.save(out, format="PNG", optimize=True)
    return out.getvalue()


def _box(square: Square) -> Rect:
    left, top = MARGIN + square[0] * CELL, MARGIN + square[1] * CELL
    return left, top, left + CELL, top + CELL


def _corridor(draw: ImageDraw.ImageDraw, board: Board) -> None:
    starts = {square: suspect for suspect, square in board.starts.items()}
    for square in board.corridor:
        fill = CORRIDOR
        if square in starts:
            fill = _light(SUSPECT_COLOURS.get(starts[square], CORRIDOR))
        draw.rectangle(_box(square), fill=fill, outline=GRID)


def _rooms(draw: ImageDraw.ImageDraw, board: Board) -> None:
    for i, room in enumerate(board.rooms):
        shape = board.room_squares.get(room, frozenset())
        for square in shape:
            draw.rectangle(_box(square), fill=ROOM_COLOURS[i % len(ROOM_COLOURS)])
        for square in shape:  # walls on every edge that leaves the room
            left, top, right, bottom = _box(square)
            c, r = square
            edges = {
                (c, r - 1): (left, top, right, top),
                (c, r + 1): (left, bottom, right, bottom),
                (c - 1, r): (left, top, left, bottom),
                (c + 1, r): (right, top, right, bottom),
            }
            for near, edge in edges.items():
                if near not in shape:
                    draw.line(edge, fill=WALL, width=3)
    for door in board.doors:
        _door(draw, board, door.room, door.square)


def _door(draw: ImageDraw.ImageDraw, board: Board, room: str, square: Square) -> None:
    """A door on the edge between the corridor square and the room's square beside it."""
    shape = board.room_squares.get(room, frozenset())
    c, r = square
    for inside in ((c, r - 1), (c - 1, r), (c + 1, r), (c, r + 1)):
        if inside in shape:
            left, top, right, bottom = _box(square)
            dc, dr = inside[0] - c, inside[1] - r
            if dr:
                y = top if dr < 0 else bottom
                draw.rectangle((left + 4, y - 3, right - 4, y + 3), fill=DOOR, outline=WALL)
            else:
                x = left if dc < 0 else right
                draw.rectangle((x - 3, top + 4, x + 3, bottom - 4), fill=DOOR, outline=WALL)
            return


def _centre(draw: ImageDraw.ImageDraw, board: Board) -> None:
    """The centre (stairs and the envelope): not walkable, drawn as an envelope."""
    if not board.centre:
        return
    left, top, right, bottom = _bounds(board.centre)
    draw.rectangle((left, top, right, bottom), fill=CENTRE, outline=WALL, width=3)
    mid_y = (top + bottom) // 2
    envelope = (left + 20, mid_y - 22, right - 20, mid_y + 22)
    draw.rectangle(envelope, fill=(236, 226, 200), outline=INK, width=2)
    tip = ((left + right) // 2, mid_y + 4)
    flap = ((envelope[0], envelope[1]), tip, (envelope[2], envelope[1]))
    draw.line(flap, fill=INK, width=2)


def _passages(draw: ImageDraw.ImageDraw, board: Board) -> None:
    """A dark stair square in a passage room's outer corner, its arrow pointing at the
    room the passage leads to."""
    for room, other in board.passages.items():
        corner = _outer_corner(board, room)
        target = _outer_corner(board, other)
        if corner is None or target is None:
            continue
        left, top, right, bottom = _box(corner)
        draw.rectangle((left + 1, top + 1, right - 1, bottom - 1), fill=WALL)
        dx = 1 if target[0] > corner[0] else -1 if target[0] < corner[0] else 0
        dy = 1 if target[1] > corner[1] else -1 if target[1] < corner[1] else 0
        cx, cy = (left + right) // 2, (top + bottom) // 2
        tip = (cx + dx * 7, cy + dy * 7)
        draw.line(((cx - dx * 7, cy - dy * 7), tip), fill=MARKER, width=3)
        draw.polygon((tip, (tip[0] - dx * 6, tip[1]), (tip[0], tip[1] - dy * 6)), fill=MARKER)


def _outer_corner(board: Board, room: str) -> Square | None:
    """The room's square nearest to a corner of the board."""
    shape = board.room_squares.get(room)
    if not shape:
        return None
    far_c, far_r = board.width - 1, board.height - 1
    corners = ((0, 0), (far_c, 0), (0, far_r), (far_c, far_r))
    return min(sorted(shape), key=lambda s: min(abs(s[0] - x) + abs(s[1] - y) for x, y in corners))


def _corridor_tokens(
    draw: ImageDraw.ImageDraw, tokens: tuple[tuple[str, Place], ...]
) -> dict[str, list[str]]:
    """Draw the tokens standing on squares; return those in rooms, by room."""
    in_rooms: dict[str, list[str]] = {}
    for suspect, place in tokens:
        if isinstance(place, str):
            in_rooms.setdefault(place, []).append(suspect)
        else:
            left, top, _, _ = _box(place)
            draw_token(draw, suspect, left + CELL // 2, top + CELL // 2)
    return in_rooms


def draw_token(draw: ImageDraw.ImageDraw, suspect: str, x: int, y: int) -> None:
    colour = SUSPECT_COLOURS.get(suspect, (128, 128, 128))
    draw.ellipse((x - 8, y - 8, x + 8, y + 8), fill=colour, outline=INK, width=2)


def _room_contents(
    draw: ImageDraw.ImageDraw,
    board: Board,
    room: str,
    suspects: list[str],
    weapons: tuple[tuple[str, str], ...],
    names: Mapping[str, str],
) -> None:
    """The room's name, then its tokens, then its weapons, inside its largest rectangle."""
    left, top, right, _ = _main_rect(board, room)
    width = right - left - 8
    y = top + 4
    bold = load_font(12, bold=True)
    for line in wrap(names.get(room, room), bold, width):
        text_width = draw.textlength(line, font=bold)
        draw.text(((left + right - text_width) / 2, y), line, fill=INK, font=bold)
        y += 14
    order = list(board.starts)
    x = left + 4
    y += 4
    for suspect in sorted(suspects, key=lambda s: order.index(s) if s in order else len(order)):
        if x + 18 > right:
            x, y = left + 4, y + 19
        draw_token(draw, suspect, x + 9, y + 9)
        x += 19
    if suspects:
        y += 22
    small = load_font(10)
    x = left + 4
    for weapon in sorted(w for w, where in weapons if where == room):
        label = fit(names.get(weapon, weapon), small, width - 6)
        marker_width = int(draw.textlength(label, font=small)) + 8
        if x + marker_width > right - 2 and x > left + 4:
            x, y = left + 4, y + 16
        draw.rounded_rectangle(
            (x, y, x + marker_width, y + 14), radius=4, fill=MARKER, outline=WALL
        )
        draw.text((x + 4, y + 1), label, fill=INK, font=small)
        x += marker_width + 3


@cache
def _main_rect(board: Board, room: str) -> Rect:
    """The largest rectangle of the room's squares, in pixels (for its name and contents)."""
    shape = board.room_squares.get(room, frozenset())
    if not shape:
        return 0, 0, 0, 0
    best: tuple[int, Rect] = (0, (0, 0, 0, 0))
    cols = sorted({c for c, _ in shape})
    rows = sorted({r for _, r in shape})
    for c0 in cols:
        for c1 in (c for c in cols if c >= c0):
            for r0 in rows:
                for r1 in (r for r in rows if r >= r0):
                    area = (c1 - c0 + 1) * (r1 - r0 + 1)
                    if area > best[0] and all(
                        (c, r) in shape for c in range(c0, c1 + 1) for r in range(r0, r1 + 1)
                    ):
                        best = (area, (c0, r0, c1, r1))
    c0, r0, c1, r1 = best[1]
    return _box((c0, r0))[0], _box((c0, r0))[1], _box((c1, r1))[2], _box((c1, r1))[3]


def _bounds(squares: frozenset[Square]) -> Rect:
    boxes = [_box(s) for s in squares]
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


def wrap(text: str, font: Font, width: int) -> list[str]:
    """Words in lines no wider than `width` (a long word is cut to fit)."""
    lines: list[str] = []
    for word in text.split():
        if lines and _width(f"{lines[-1]} {word}", font) <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(fit(word, font, width))
    return lines[:3]


def fit(text: str, font: Font, width: int) -> str:
    """The text, cut with an ellipsis when wider than `width`."""
    if _width(text, font) <= width:
        return text
    while text and _width(text + "…", font) > width:
        text = text[:-1]
    return text + "…"


def _width(text: str, font: Font) -> float:
    return font.getlength(text)


def _legend(draw: ImageDraw.ImageDraw, board: Board, names: Mapping[str, str]) -> None:
    """Under the board: each suspect's colour and name, in two rows of three."""
    font = load_font(12)
    column = (board.width * CELL) // 3
    top = MARGIN * 2 + board.height * CELL
    for i, suspect in enumerate(board.starts):
        x = MARGIN + (i % 3) * column
        y = top + (i // 3) * 20
        draw_token(draw, suspect, x + 9, y + 9)
        label = fit(names.get(suspect, suspect), font, column - 26)
        draw.text((x + 22, y + 2), label, fill=MARKER, font=font)


def _light(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    r, g, b = colour
    return (r + 255) // 2, (g + 255) // 2, (b + 255) // 2
