"""Telegram refused a message because its chat cannot be reached (403, or "chat not found").

A person who never started the bot, or blocked it: their rows wait until they start it, and
the game's thread is told once, with a button that opens the private chat. A group the bot
is not in: its rows wait until the bot is added back.
"""

from __future__ import annotations

import logging

from telegram.error import TelegramError

from bot.delivery.needs import Delivering
from bot.payload import Payload, User
from storage.messages_owed import OutboxItem
from storage.outbox import OutboxRow

log = logging.getLogger(__name__)


async def unreachable(services: Delivering, row: OutboxRow, error: TelegramError) -> None:
    """A person who never started the bot or blocked it: park and tell the thread once.
    A group the bot is not in: park its queue until the bot is added back."""
    store = services.store
    if row.user_id is None:  # the bot is not in the group: hold its posts until it is back
        if await store.outbox.park_chat(row.id, error.message[:500]):
            log.warning(
                "the bot cannot post in chat %s (%s); its messages wait until it is back",
                row.chat_id,
                error.message,
            )
        return
    await store.outbox.mark_undeliverable(row.id, "forbidden")
    await store.people.set_dm_ok(row.user_id, False)
    payload = Payload.from_row(row.payload)
    if payload.notify is None:
        return
    chat_id, topic_id = payload.notify
    game = payload.game or 0
    link = services.deep_link(f"g{game}")
    notice = OutboxItem(
        key=f"dmhint:{chat_id}:{topic_id}:{row.user_id}:{game}",
        chat_id=chat_id,
        topic_id=topic_id,
        payload=Payload(
            "dm.blocked_notice",
            {"player": User(row.user_id)},
            buttons=[[{"t": "button.open_private", "url": link}]],
        ).to_row(),
    )
    await store.outbox.enqueue([notice], services.now())
    services.outbox_ready.set()
