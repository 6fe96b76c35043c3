"""The Liars Edition's board: nine rooms in a ring around the Interrogation Room (where
exposed cards lie face up), secret passages across the corners; as a picture (Pillow,
cached by position) or in words. Drawn with the classic picture's colours and fonts."""

from __future__ import annotations

import io
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from PIL import Image, ImageDraw

from bot.render.board_picture import (
    BACKGROUND,
    CENTRE,
    INK,
    MARKER,
    ROOM_COLOURS,
    SUSPECT_COLOURS,
    WALL,
    Rect,
    draw_token,
    fit,
    load_font,
    wrap,
)
from bot.render.board_text import SUSPECT_MARKS
from bot.render.board_view import BoardView, captioned
from bot.render.reader import Reader
from engine.liars.cards import LIARS_PACK, PASSAGES, RING
from locales import t

CELL = 150
MARGIN = 10
LEGEND = 46
# Each room's cells in a 4 × 4 grid (column, row): the ring around a 2 × 2 centre.
CELLS: Mapping[str, tuple[int, int, int, int]] = MappingProxyType(
    {
        "kitchen": (0, 0, 0, 0),
        "ballroom": (1, 0, 2, 0),
        "conservatory": (3, 0, 3, 0),
        "billiard_room": (3, 1, 3, 1),
        "library": (3, 2, 3, 2),
        "study": (3, 3, 3, 3),
        "hall": (1, 3, 2, 3),
        "lounge": (0, 3, 0, 3),
        "dining_room": (0, 1, 0, 2),
    }
)
CENTRE_CELLS = (1, 1, 2, 2)


def _rect(cells: tuple[int, int, int, int]) -> Rect:
    c0, r0, c1, r1 = cells
    return (
        MARGIN + c0 * CELL + 3,
        MARGIN + r0 * CELL + 3,
        MARGIN + (c1 + 1) * CELL - 3,
        MARGIN + (r1 + 1) * CELL - 3,
    )


def liars_png(
    tokens: Mapping[str, str],
    weapons: Mapping[str, str],
    face_up: tuple[str, ...],
    names: Mapping[str, str],
) -> bytes:
    """The ring with the tokens and weapons in their rooms and the face-up cards in the
    middle, labelled with `names` (card id -> name, and "interrogation" -> its name)."""
    return _png(
        tuple(sorted(tokens.items())),
        tuple(sorted(weapons.items())),
        face_up,
        tuple(sorted(names.items())),
    )


@lru_cache(maxsize=64)
def _png(
    tokens: tuple[tuple[str, str], ...],
    weapons: tuple[tuple[str, str], ...],
    face_up: tuple[str, ...],
    names: tuple[tuple[str, str], ...],
) -> bytes:
    size = 4 * CELL + 2 * MARGIN
    image = Image.new("RGB", (size, size + LEGEND), BACKGROUND)
    draw = ImageDraw.Draw(image)
    named = dict(names)
    for i, room in enumerate(RING):
        left, top, right, bottom = _rect(CELLS[room])
        draw.rectangle((left, top, right, bottom), fill=ROOM_COLOURS[i], outline=WALL, width=3)
        inside = [s for s, where in tokens if where == room]
        held = [w for w, where in weapons if where == room]
        _contents(draw, (left, top, right, bottom), named.get(room, room), inside, held, named)
        if room in PASSAGES:
            _passage_mark(draw, room, named.get(PASSAGES[room], PASSAGES[room]))
    _centre(draw, face_up, named)
    font = load_font(12)
    column = (4 * CELL) // 3
    for i, suspect in enumerate(LIARS_PACK.suspects):
        x, y = MARGIN + (i % 3) * column, size + (i // 3) * 20
        draw_token(draw, suspect, x + 9, y + 9)
        draw.text(
            (x + 22, y + 2),
            fit(named.get(suspect, suspect), font, column - 26),
            fill=MARKER,
            font=font,
        )
    out = io.BytesIO()
    image.quantize(colors=256, dither=Image.Dither.NONE).save(out, format="PNG", optimize=True)
    return out.getvalue()


def _contents(
    draw: ImageDraw.ImageDraw,
    box: Rect,
    title: str,
    suspects: list[str],
    weapons: list[str],
    names: Mapping[str, str],
) -> None:
    left, top, right, _ = box
    width = right - left - 10
    y = top + 6
    bold = load_font(13, bold=True)
    for line in wrap(title, bold, width):
        draw.text(
            ((left + right - draw.textlength(line, font=bold)) / 2, y), line, fill=INK, font=bold
        )
        y += 15
    x, y = left + 6, y + 4
    order = list(LIARS_PACK.suspects)
    for suspect in sorted(suspects, key=order.index):
        if x + 18 > right:
            x, y = left + 6, y + 19
        draw_token(draw, suspect, x + 9, y + 9)
        x += 20
    y += 24 if suspects else 0
    small = load_font(10)
    for weapon in sorted(weapons):
        label = fit(names.get(weapon, weapon), small, width - 8)
        w = int(draw.textlength(label, font=small)) + 8
        draw.rounded_rectangle(
            (left + 6, y, left + 6 + w, y + 14), radius=4, fill=MARKER, outline=WALL
        )
        draw.text((left + 10, y + 1), label, fill=INK, font=small)
        y += 17


def _passage_mark(draw: ImageDraw.ImageDraw, room: str, to: str) -> None:
    """A corner room's passage: a mark at its foot, on the centre's side, naming where it
    leads."""
    left, _, right, bottom = _rect(CELLS[room])
    inner_x = right - 14 if CELLS[room][0] == 0 else left + 4
    inner_y = bottom - 16  # along the room's foot, clear of its name
    font = load_font(10)
    label = "⇄ " + to
    x = inner_x if CELLS[room][0] != 0 else inner_x - int(draw.textlength(label, font=font)) + 10
    draw.text((x, inner_y), label, fill=WALL, font=font)


def _centre(draw: ImageDraw.ImageDraw, face_up: tuple[str, ...], names: Mapping[str, str]) -> None:
    """The Interrogation Room with the cards lying face up."""
    left, top, right, bottom = _rect(CENTRE_CELLS)
    draw.rectangle((left, top, right, bottom), fill=CENTRE, outline=WALL, width=3)
    bold = load_font(14, bold=True)
    title = names.get("interrogation", "Interrogation Room")
    draw.text(
        ((left + right - draw.textlength(title, font=bold)) / 2, top + 10),
        title,
        fill=MARKER,
        font=bold,
    )
    font = load_font(12)
    y = top + 36
    for card in face_up:
        label = fit(names.get(card, card), font, right - left - 30)
        draw.rounded_rectangle(
            (left + 14, y, right - 14, y + 18), radius=4, fill=MARKER, outline=WALL
        )
        draw.text((left + 20, y + 2), label, fill=INK, font=font)
        y += 22


def liars_names(
    reader: Reader, tokens: Mapping[str, str], weapons: Mapping[str, str], face_up: tuple[str, ...]
) -> dict[str, str]:
    """Card id -> name (not escaped: the picture draws text), and the centre's name."""
    ids = {*RING, *LIARS_PACK.suspects, *tokens, *weapons, *face_up}
    names = {card: reader.card_name(card) for card in ids}
    names["interrogation"] = t(reader.language, "liars.interrogation_room")
    return names


def liars_text(
    reader: Reader, tokens: Mapping[str, str], weapons: Mapping[str, str], face_up: tuple[str, ...]
) -> str:
    """The board in words: each token's room, the weapons, the face-up cards."""
    lang = reader.language
    lines = [t(lang, "board.heading")]
    for suspect in LIARS_PACK.suspects:
        if suspect in tokens:
            mark = SUSPECT_MARKS.get(suspect, "•")
            room = reader.card(tokens[suspect])
            lines.append(
                t(lang, "board.token_room", mark=mark, suspect=reader.card(suspect), room=room)
            )
    placed = [
        t(lang, "board.weapon_room", weapon=reader.card(w), room=reader.card(r))
        for w, r in sorted(weapons.items(), key=lambda item: (RING.index(item[1]), item[0]))
    ]
    lines.append(t(lang, "board.weapons", weapons="; ".join(placed)))
    if face_up:
        lines.append(t(lang, "liars.face_up", cards=reader.cards(list(face_up))))
    return "\n".join(lines)


@dataclass(frozen=True)
class RingBoard(BoardView):
    """The ring as a post and in words, from a payload's board (`liars_board`)."""

    def post(self, reader: Reader, board: dict[str, Any], text: str) -> tuple[str, bytes | None]:
        tokens, weapons, face_up = _position(board)
        caption = captioned(board, text)
        if caption is not None:
            names = liars_names(reader, tokens, weapons, face_up)
            return caption, liars_png(tokens, weapons, face_up, names)
        return text + "\n\n" + liars_text(reader, tokens, weapons, face_up), None

    def words(self, reader: Reader, board: dict[str, Any]) -> str:
        return liars_text(reader, *_position(board))


def _position(board: dict[str, Any]) -> tuple[dict[str, str], dict[str, str], tuple[str, ...]]:
    """The tokens' rooms, the weapons' rooms and the face-up cards of a stored board."""
    tokens = {str(s): str(p) for s, p in board["tokens"]}
    weapons = {str(w): str(r) for w, r in board["weapons"]}
    return tokens, weapons, tuple(str(c) for c in board.get("face_up", ()))


RING_BOARD = RingBoard()
__all__ = ["RING_BOARD", "SUSPECT_COLOURS", "liars_names", "liars_png", "liars_text"]
