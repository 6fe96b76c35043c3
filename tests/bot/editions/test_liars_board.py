"""The Liars Edition's board: the ring picture (PNG) with the Interrogation Room, and the
text fallback."""

from __future__ import annotations

import io

from PIL import Image

from bot.editions.liars.board import CELL, CELLS, MARGIN, liars_names, liars_png, liars_text
from bot.editions.registry import shipped
from bot.render.board_picture import SUSPECT_COLOURS
from bot.render.reader import Reader
from engine.liars.cards import LIARS_PACK, START_ROOMS

SHOWN = shipped()  # the shipped editions' presentations
board_post = SHOWN.board_post

WEAPONS = dict(
    zip(LIARS_PACK.weapons, ("kitchen", "hall", "study", "lounge", "library", "hall"), strict=True)
)
LIMIT = 200 * 1024


def _png(tokens: dict[str, str], face_up: tuple[str, ...] = (), language: str = "en") -> bytes:
    names = liars_names(Reader(language), tokens, WEAPONS, face_up)
    return liars_png(tokens, WEAPONS, face_up, names)


def test_the_ring_picture_is_a_small_png_with_every_token_in_its_room() -> None:
    png = _png(dict(START_ROOMS))
    assert png.startswith(b"\x89PNG") and len(png) < LIMIT
    left, top = MARGIN + CELLS["study"][0] * CELL, MARGIN + CELLS["study"][1] * CELL
    study = Image.open(io.BytesIO(png)).convert("RGB").crop((left, top, left + CELL, top + CELL))
    found = {colour for _, colour in study.getcolors(CELL * CELL) or []}
    assert SUSPECT_COLOURS["plum"] in found  # Professor Plum starts in the Study


def test_the_picture_changes_with_the_position_and_the_face_up_cards() -> None:
    start = _png(dict(START_ROOMS))
    moved = _png({**START_ROOMS, "scarlett": "kitchen"})
    exposed = _png(dict(START_ROOMS), face_up=("statue",))
    assert len({start, moved, exposed}) == 3
    assert _png(dict(START_ROOMS)) == start  # cached and deterministic


def test_the_picture_names_rooms_and_the_interrogation_room_in_russian() -> None:
    names = liars_names(Reader("ru"), dict(START_ROOMS), WEAPONS, ("statue",))
    assert names["statue"] == "Статуя" and names["interrogation"] == "Комната допросов"
    assert _png(dict(START_ROOMS), ("statue",), "ru") != _png(dict(START_ROOMS), ("statue",))


def test_with_pictures_off_the_board_is_told_in_words() -> None:
    board = {
        "name": "liars",
        "tokens": [[s, r] for s, r in START_ROOMS.items()],
        "weapons": [[w, r] for w, r in WEAPONS.items()],
        "face_up": ["statue"],
        "images": False,
    }
    text, picture = board_post(Reader("en"), board, "Turn 1")
    assert picture is None
    assert "Professor Plum — Study" in text and "Statue" in text
    assert "Interrogation Room: Statue" in text
    assert liars_text(Reader("ru"), dict(START_ROOMS), WEAPONS, ()).count("—") >= 6
