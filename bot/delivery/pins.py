"""Pinning a post once sent (a game's index), without a notification, where the bot may pin:
what Telegram answered is kept (storage.pins) for `/status` and `whodunit doctor`; a refusal
(the bot is not an admin with the right to pin) breaks nothing."""

from __future__ import annotations

import logging

from telegram.error import BadRequest, Forbidden, TelegramError

from bot.delivery.line import Line
from bot.delivery.needs import Delivering
from storage.outbox import OutboxRow

log = logging.getLogger(__name__)


async def pin_sent(line: Line, services: Delivering, row: OutboxRow, message_id: int) -> None:
    """Pin the message `row` sent, and note whether it could be (a network error: unknown,
    nothing noted)."""
    refusal: str | None = None
    try:
        async with line.sending:
            await line.bot.pin_chat_message(
                row.chat_id,
                message_id,
                disable_notification=True,
                read_timeout=line.timeout,
                write_timeout=line.timeout,
            )
    except (BadRequest, Forbidden) as error:
        refusal = error.message
        log.info("chat %s: message %s could not be pinned: %s", row.chat_id, message_id, refusal)
    except TelegramError as error:
        log.warning("chat %s: pinning message %s failed: %s", row.chat_id, message_id, error)
        return
    game_id = row.game_id if row.game_id is not None else row.payload.get("game")
    if game_id is not None:
        await services.store.index_pins.note(int(game_id), message_id, refusal, services.now())
