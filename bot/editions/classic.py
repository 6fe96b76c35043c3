"""Classic Cluedo at the table: the shared table core's defaults (`bot.announce.table_turns`,
`table_prompt`, `bot.render.table_messages`), on the classic board of squares."""

from __future__ import annotations

from bot.announce.table_prompt import ClassicPrompt
from bot.editions.base import Edition
from bot.render.board_view import SQUARE_BOARD
from bot.render.table_messages import started
from engine.board import CLASSIC as CLASSIC_BOARD

CLASSIC = Edition(
    key="classic",
    words=("classic",),
    rules="rules.classic",
    started="table.started",
    prompt=ClassicPrompt(),
    composers={"table.started": started("table.started")},
    boards={CLASSIC_BOARD.key: SQUARE_BOARD},
)
