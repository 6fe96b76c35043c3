"""The square boards (classic, 2023) as a post and in words: the picture (PNG, cached)
with the text as its caption, or the board in words under the text when the game's
pictures are off or the text is too long for a caption."""

from __future__ import annotations

from typing import Any

from bot.editions.base import BoardView
from bot.render.board_picture import board_png
from bot.render.board_text import board_text, picture_names
from bot.render.reader import Reader
from engine.board import BOARDS
from engine.board.model import Place

CAPTION_LIMIT = 1024  # Telegram's limit for a photo's caption


def place_of(raw: Any) -> Place:
    """A place from a stored payload (a square comes back as a list)."""
    return raw if isinstance(raw, str) else (int(raw[0]), int(raw[1]))


def pictured(board: dict[str, Any], text: str) -> bool:
    """Whether the post is a picture: the game's pictures are on and the text fits under it."""
    return bool(board.get("images", True)) and len(text) <= CAPTION_LIMIT


class SquareBoard(BoardView):
    """A board of squares from `engine.board.BOARDS`, by the payload's board name."""

    def post(self, reader: Reader, board: dict[str, Any], text: str) -> tuple[str, bytes | None]:
        plan = BOARDS[str(board["name"])]
        tokens = {str(s): place_of(p) for s, p in board["tokens"]}
        weapons = {str(w): str(r) for w, r in board["weapons"]}
        if pictured(board, text):
            names = picture_names(reader, plan, tokens, weapons)
            return text, board_png(plan, tokens, weapons, names)
        return text + "\n\n" + board_text(reader, plan, tokens, weapons), None

    def words(self, reader: Reader, board: dict[str, Any]) -> str:
        tokens = {str(s): place_of(p) for s, p in board["tokens"]}
        weapons = {str(w): str(r) for w, r in board["weapons"]}
        return board_text(reader, BOARDS[str(board["name"])], tokens, weapons)


SQUARE_BOARD = SquareBoard()
