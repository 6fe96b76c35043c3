"""Each edition's own buttons besides its turn prompt's (those are answered by the table's
handler, `bot.handlers.table`): the callback kinds, and the handler that answers them. The
application adds these; kept apart from `registry` because the handlers need the bot's
context, which the planners and composers must not import."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from telegram import Update

from bot.context import CustomContext
from bot.handlers import liars_presses as liars

Press = Callable[[Update, CustomContext], Coroutine[Any, Any, None]]

BUTTONS: tuple[tuple[tuple[str, ...], Press], ...] = ((liars.KINDS, liars.liars_button),)
