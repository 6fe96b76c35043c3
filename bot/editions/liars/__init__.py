"""Clue: Liars Edition at the table: the investigation card, Liar! and its outcomes
(`events`), the prompt around the ring (`prompt`), the investigation card's words
(`messages`), the ring of rooms drawn (`board`), its toasts (`toasts`). Its own buttons
besides the prompt's are answered in `presses`."""

from __future__ import annotations

from bot.editions.base import Edition
from bot.editions.liars.board import RING_BOARD
from bot.editions.liars.events import LIARS_EVENT_HANDLERS, liars_board
from bot.editions.liars.lines import LIARS_LINES, liar_button, window_clock
from bot.editions.liars.messages import LIARS_COMPOSERS
from bot.editions.liars.prompt import LiarsPrompt
from bot.editions.liars.toasts import LIARS_TOASTS
from bot.render.table_messages import started
from engine.liars.cards import BOARD_KEY

LIARS = Edition(
    key="liars",
    words=("liars",),
    rules="rules.liars",
    rules_words=("liars",),
    started="liars.started",
    planners=LIARS_EVENT_HANDLERS,
    prompt=LiarsPrompt(),
    lines=LIARS_LINES,
    card_buttons=liar_button,
    card_clock=window_clock,
    composers={"liars.started": started("liars.started"), **LIARS_COMPOSERS},
    boards={BOARD_KEY: RING_BOARD},
    board=liars_board,
    toasts=LIARS_TOASTS,
)
