"""The 2023 edition (Cluedo 2023) at the table: its set-up, clue cards and placed cards
(`events`; the turn card's `lines`), its prompt's words (`prompt`), the characters chosen
on the lobby post (`lobby`), on its own board of squares."""

from __future__ import annotations

from bot.announce.toasts import fixed
from bot.editions.base import Edition
from bot.editions.y2023.events import Y2023_HANDLERS
from bot.editions.y2023.lines import Y2023_LINES
from bot.editions.y2023.lobby import character_args, character_rows
from bot.editions.y2023.prompt import Y2023Prompt, also_seen
from bot.render.board_view import SQUARE_BOARD
from bot.render.table_messages import started
from engine.y2023 import events as yev
from engine.y2023.board import Y2023_BOARD

Y2023 = Edition(
    key="y2023",
    words=("2023", "y2023"),
    rules="rules.y2023",
    rules_words=("2023", "y2023"),
    started="y2023.started",
    planners=Y2023_HANDLERS,
    prompt=Y2023Prompt(),
    lines=Y2023_LINES,
    composers={"y2023.started": started("y2023.started")},
    boards={Y2023_BOARD.key: SQUARE_BOARD},
    lobby_args=character_args,
    lobby_rows=character_rows,
    also_seen=also_seen,
    toasts={yev.ClueCardDrawn: fixed("toast.clue_drawn")},
)
