"""The board picture (PNG) and its text fallback."""

from __future__ import annotations

import io

from PIL import Image

from bot.render.board_picture import CELL, MARGIN, SUSPECT_COLOURS, board_png, picture_size
from bot.render.board_text import board_text, picture_names, square_label
from bot.render.reader import Reader
from engine.board import CLASSIC, Place

WEAPONS = {
    "candlestick": "kitchen",
    "dagger": "ballroom",
    "lead_pipe": "library",
    "revolver": "lounge",
    "rope": "hall",
    "wrench": "study",
}
START: dict[str, Place] = dict(CLASSIC.starts)
MID_GAME: dict[str, Place] = {
    **START,
    "scarlett": "lounge",
    "mustard": "lounge",
    "white": (7, 9),
    "green": "conservatory",
    "plum": (16, 16),
}
MID_WEAPONS = {**WEAPONS, "rope": "lounge", "dagger": "lounge", "wrench": "conservatory"}
LIMIT = 200 * 1024


def _png(tokens: dict[str, Place], weapons: dict[str, str], language: str = "en") -> bytes:
    names = picture_names(Reader(language), CLASSIC, tokens, weapons)
    return board_png(CLASSIC, tokens, weapons, names)


def _open(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    return image.convert("RGB")


def _centre_of(square: tuple[int, int]) -> tuple[int, int]:
    return MARGIN + square[0] * CELL + CELL // 2, MARGIN + square[1] * CELL + CELL // 2


def test_the_start_position_renders_small_at_the_expected_size() -> None:
    png = _png(START, WEAPONS)
    assert len(png) < LIMIT
    image = _open(png)
    assert image.size == picture_size(CLASSIC) == (24 * CELL + 2 * MARGIN, 25 * CELL + 62)


def test_each_token_stands_on_its_start_square_in_its_colour() -> None:
    image = _open(_png(START, WEAPONS))
    for suspect, square in CLASSIC.starts.items():
        assert image.getpixel(_centre_of(square)) == SUSPECT_COLOURS[suspect]


def test_a_mid_game_position_renders_small() -> None:
    for language in ("en", "ru"):
        png = _png(MID_GAME, MID_WEAPONS, language)
        assert len(png) < LIMIT
        image = _open(png)
        assert image.size == picture_size(CLASSIC)
        assert image.getpixel(_centre_of((16, 16))) == SUSPECT_COLOURS["plum"]


def test_the_picture_differs_when_a_token_moves() -> None:
    before = _png(MID_GAME, MID_WEAPONS)
    moved = _png({**MID_GAME, "white": (7, 10)}, MID_WEAPONS)
    assert before != moved
    image = _open(moved)
    assert image.getpixel(_centre_of((7, 10))) == SUSPECT_COLOURS["white"]
    assert image.getpixel(_centre_of((7, 9))) != SUSPECT_COLOURS["white"]
    into_room = _png({**MID_GAME, "white": "dining_room"}, MID_WEAPONS)
    assert into_room not in (before, moved)


def test_the_picture_differs_when_a_weapon_moves_or_the_language_changes() -> None:
    before = _png(MID_GAME, MID_WEAPONS)
    assert _png(MID_GAME, {**MID_WEAPONS, "candlestick": "hall"}) != before
    assert _png(MID_GAME, MID_WEAPONS, "ru") != before


def test_the_same_position_is_drawn_once() -> None:
    first = _png(MID_GAME, MID_WEAPONS)
    again = _png(dict(reversed(MID_GAME.items())), dict(MID_WEAPONS))
    assert again is first  # the cached bytes, whatever order the position came in


def test_squares_are_named_as_on_the_board_edges() -> None:
    assert square_label((0, 0)) == "A1"
    assert square_label(CLASSIC.starts["scarlett"]) == "H25"
    assert square_label((23, 24)) == "X25"


def test_the_text_fallback_names_each_tokens_place() -> None:
    text = board_text(Reader("en"), CLASSIC, MID_GAME, MID_WEAPONS)
    lines = text.splitlines()
    assert len(lines) == 1 + 6 + 1
    assert "Miss Scarlett — Lounge" in lines[1]
    assert "Mrs White — corridor, square H10" in text
    assert "Professor Plum — corridor, square Q17" in lines[6]
    assert "Rope — Lounge" in lines[7] and "Candlestick — Kitchen" in lines[7]


def test_the_text_fallback_in_russian() -> None:
    text = board_text(Reader("ru"), CLASSIC, MID_GAME, MID_WEAPONS)
    assert "Мисс Скарлет — Гостиная" in text
    assert "клетка H10" in text
    assert "Орудия:" in text and "Верёвка — Гостиная" in text
