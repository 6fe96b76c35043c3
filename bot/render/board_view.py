"""The square boards (classic, 2023) as a post and in words: the picture (PNG, cached)
with the text as its caption, or the board in words under the text when the game's
pictures are off."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.render.board_picture import board_png
from bot.render.board_text import board_text, picture_names
from bot.render.reader import Reader
from engine import REGISTRY
from engine.board.model import Place

CAPTION_LIMIT = 1024  # Telegram's limit for a photo's caption


def place_of(raw: Any) -> Place:
    """A place from a stored payload (a square comes back as a list)."""
    return raw if isinstance(raw, str) else (int(raw[0]), int(raw[1]))


def captioned(board: dict[str, Any], text: str) -> str | None:
    """The picture's caption when the game's pictures are on (None: the board goes in words).
    A text too long for a caption keeps its first line and as many of its last as fit, the
    lines between left out (a turn's card that grew long: its latest lines matter)."""
    if not board.get("images", True):
        return None
    if len(text) <= CAPTION_LIMIT:
        return text
    lines = text.split("\n")
    head, kept = lines[0], list[str]()
    room = CAPTION_LIMIT - len(head) - len("\n…")
    for line in reversed(lines[1:]):
        if len(line) + 1 > room:
            break
        kept.insert(0, line)
        room -= len(line) + 1
    return "\n".join([head[: CAPTION_LIMIT - 2], "…", *kept]) if room >= 0 else head[:CAPTION_LIMIT]


@dataclass(frozen=True)
class BoardView:
    """How a board is shown: as a post (a picture with the text as its caption, or the
    board in words under the text) and in words alone (/status). Each edition names its
    boards' views (`Edition.boards`); the square one is here, the Liars ring with its
    edition."""

    def post(self, reader: Reader, board: dict[str, Any], text: str) -> tuple[str, bytes | None]:
        raise NotImplementedError

    def words(self, reader: Reader, board: dict[str, Any]) -> str:
        raise NotImplementedError


@dataclass(frozen=True)
class SquareBoard(BoardView):
    """A board of squares of the shipped registry's (`REGISTRY.boards`), by the payload's
    board name."""

    def post(self, reader: Reader, board: dict[str, Any], text: str) -> tuple[str, bytes | None]:
        plan = REGISTRY.boards[str(board["name"])]
        tokens = {str(s): place_of(p) for s, p in board["tokens"]}
        weapons = {str(w): str(r) for w, r in board["weapons"]}
        caption = captioned(board, text)
        if caption is not None:
            names = picture_names(reader, plan, tokens, weapons)
            return caption, board_png(plan, tokens, weapons, names)
        return text + "\n\n" + board_text(reader, plan, tokens, weapons), None

    def words(self, reader: Reader, board: dict[str, Any]) -> str:
        tokens = {str(s): place_of(p) for s, p in board["tokens"]}
        weapons = {str(w): str(r) for w, r in board["weapons"]}
        return board_text(reader, REGISTRY.boards[str(board["name"])], tokens, weapons)


SQUARE_BOARD = SquareBoard()
