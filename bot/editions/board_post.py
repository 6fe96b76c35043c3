"""A post that carries a board position: drawn by the edition that owns the board (its
picture with the text as the caption, or the board in words under the text)."""

from __future__ import annotations

from typing import Any

from bot.editions.registry import board_view
from bot.render.reader import Reader


def board_post(reader: Reader, board: dict[str, Any], text: str) -> tuple[str, bytes | None]:
    """The post's text and its picture (None: the board is told in words instead)."""
    return board_view(str(board["name"])).post(reader, board, text)


def board_words(reader: Reader, board: dict[str, Any]) -> str:
    """The board in words alone (/status)."""
    return board_view(str(board["name"])).words(reader, board)
