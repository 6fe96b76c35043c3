"""Editing a message an earlier outbox row sent (a prompt closed, a post updated)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from telegram import InlineKeyboardMarkup
from telegram.error import BadRequest

from bot.delivery.limiter import Reservation
from bot.delivery.raw import edit_text

if TYPE_CHECKING:
    from bot.delivery.sender import Sender
    from storage.outbox import OutboxRow


async def edit(
    sender: Sender,
    row: OutboxRow,
    target_key: str,
    text: str,
    markup: InlineKeyboardMarkup | None,
) -> None:
    """Edit the message an earlier row sent; nothing to do if it was never sent.

    An edit sent twice shows the same, so a timeout is simply retried."""
    known = sender.sent_ids.get(target_key)
    if known is not None and known[0] == row.chat_id:
        target: int | None = known[1]
    else:
        target = await sender.services.store.outbox.sent_message_id(target_key, row.chat_id)
    if target is None:
        await sender._settled(row, None)
        return
    reservation = await sender.limiter.reserve(row.chat_id)
    if not isinstance(reservation, Reservation):
        await sender._defer(row, reservation)
        return
    try:
        async with sender.sending:
            await edit_text(
                sender.bot, row.chat_id, target, text, markup=markup, timeout=sender.send_timeout
            )
    except BadRequest as error:
        if not re.search(r"not modified|message to edit not found", error.message, re.I):
            raise
    finally:
        reservation.stamp(sender.clock())
        await sender._release(reservation)
    await sender._settled(row, target, lazy=True)  # an edit twice shows the same
