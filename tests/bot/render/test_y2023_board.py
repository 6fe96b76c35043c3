"""The 2023 edition's board as a picture and in words: its own doors, its characters in
their colours, names in English and Russian."""

from __future__ import annotations

import io

from PIL import Image

from bot.editions.registry import shipped
from bot.render.board_picture import CELL, MARGIN, SUSPECT_COLOURS, board_png, picture_size
from bot.render.board_text import board_text, picture_names
from bot.render.reader import Reader
from engine import REGISTRY
from engine.board import CLASSIC, Place
from engine.y2023.board import Y2023_BOARD
from engine.y2023.cards import Y2023

SHOWN = shipped()  # the shipped editions' presentations
board_post = SHOWN.board_post

WEAPONS = dict(zip(Y2023.weapons, Y2023.places, strict=False))
START: dict[str, Place] = dict(Y2023_BOARD.starts)


def _png(tokens: dict[str, Place], language: str = "en") -> bytes:
    names = picture_names(Reader(language), Y2023_BOARD, tokens, WEAPONS)
    return board_png(Y2023_BOARD, tokens, WEAPONS, names)


def _centre_of(square: tuple[int, int]) -> tuple[int, int]:
    return MARGIN + square[0] * CELL + CELL // 2, MARGIN + square[1] * CELL + CELL // 2


def test_the_classic_board_stands_in_for_2023_with_the_editions_characters_on_starts() -> None:
    assert REGISTRY.boards["y2023"] is Y2023_BOARD
    # no public map of the redesigned board: the classic geometry, no invented doors
    assert Y2023_BOARD.doors == CLASSIC.doors and Y2023_BOARD.corridor == CLASSIC.corridor
    png = _png(START)
    assert len(png) < 200 * 1024
    image = Image.open(io.BytesIO(png)).convert("RGB")
    assert image.size == picture_size(Y2023_BOARD)
    for suspect, square in Y2023_BOARD.starts.items():
        assert image.getpixel(_centre_of(square)) == SUSPECT_COLOURS[suspect], suspect


def test_the_2023_board_picture_changes_as_tokens_move_and_by_language() -> None:
    moved = {**START, "chef_white": "kitchen", "mayor_green": (14, 1)}
    assert _png(START) != _png(moved)
    assert _png(START, "ru") != _png(START, "en")


def test_the_2023_board_in_words_names_the_editions_characters() -> None:
    tokens = {**START, "solicitor_peacock": "library"}
    en = board_text(Reader("en"), Y2023_BOARD, tokens, WEAPONS)
    ru = board_text(Reader("ru"), Y2023_BOARD, tokens, WEAPONS)
    assert "Solicitor Peacock — Library" in en and "Chef White" in en
    assert "Адвокат Пикок" in ru and "Мэр Грин" in ru
    board = {"name": "y2023", "tokens": list(tokens.items()), "weapons": list(WEAPONS.items())}
    text, picture = board_post(Reader("en"), {**board, "images": False}, "Turn 3")
    assert picture is None and "Mayor Green" in text
    _, picture = board_post(Reader("en"), board, "Turn 3")
    assert picture is not None
