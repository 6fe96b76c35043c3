"""A post that carries a board position: its picture (PNG, cached) with the text as the
caption, or the board in words under the text when the game's pictures are off."""

from __future__ import annotations

from typing import Any

from bot.render.board_picture import board_png
from bot.render.board_text import board_text, picture_names
from bot.render.liars_board import liars_names, liars_png, liars_text
from bot.render.reader import Reader
from engine.board import BOARDS
from engine.board.model import Place
from engine.liars.cards import BOARD_KEY

CAPTION_LIMIT = 1024  # Telegram's limit for a photo's caption


def place_of(raw: Any) -> Place:
    """A place from a stored payload (a square comes back as a list)."""
    return raw if isinstance(raw, str) else (int(raw[0]), int(raw[1]))


def board_post(reader: Reader, board: dict[str, Any], text: str) -> tuple[str, bytes | None]:
    """The post's text and its picture (None: the board is told in words instead)."""
    if board["name"] == BOARD_KEY:
        return _liars_post(reader, board, text)
    plan = BOARDS[str(board["name"])]
    tokens = {str(s): place_of(p) for s, p in board["tokens"]}
    weapons = {str(w): str(r) for w, r in board["weapons"]}
    if board.get("images", True) and len(text) <= CAPTION_LIMIT:
        names = picture_names(reader, plan, tokens, weapons)
        return text, board_png(plan, tokens, weapons, names)
    return text + "\n\n" + board_text(reader, plan, tokens, weapons), None


def _liars_post(reader: Reader, board: dict[str, Any], text: str) -> tuple[str, bytes | None]:
    """The Liars Edition's ring of rooms, with the Interrogation Room's face-up cards."""
    tokens = {str(s): str(p) for s, p in board["tokens"]}
    weapons = {str(w): str(r) for w, r in board["weapons"]}
    face_up = tuple(str(c) for c in board.get("face_up", ()))
    if board.get("images", True) and len(text) <= CAPTION_LIMIT:
        names = liars_names(reader, tokens, weapons, face_up)
        return text, liars_png(tokens, weapons, face_up, names)
    return text + "\n\n" + liars_text(reader, tokens, weapons, face_up), None
