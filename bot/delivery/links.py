"""The posts a row's text links to (`PostLink`s in its arguments, such as a forum game's
index linking each day's opening post), found as it is sent: the message each of those rows
sent to this chat (this sender's memory, else the outbox), as Telegram's link to it."""

from __future__ import annotations

from dataclasses import replace

from bot.delivery.sent_ids import SentIds
from bot.payload import Payload, post_keys, with_urls
from storage.outbox import OutboxRow
from storage.service import Store

SUPERGROUP = "-100"  # how a supergroup's chat id begins (a basic group's does not)


def message_link(chat_id: int, topic_id: int, message_id: int | None) -> str | None:
    """Telegram's link to a message for the chat's members: `https://t.me/c/<chat>/<id>` in a
    supergroup (the id without its -100), `…/<chat>/<topic>/<id>` in a forum topic; None in
    a basic group, which has no message links, or for a message not sent."""
    digits = str(chat_id)
    if message_id is None or not digits.startswith(SUPERGROUP):
        return None
    where = f"{topic_id}/{message_id}" if topic_id else str(message_id)
    return f"https://t.me/c/{digits[len(SUPERGROUP) :]}/{where}"


async def linked(row: OutboxRow, store: Store, sent_ids: SentIds) -> Payload:
    """The row's payload, each post it links to given its link in the row's chat."""
    payload = Payload.from_row(row.payload)
    keys = post_keys(payload.args)
    if not keys:
        return payload
    known = {key: sent_ids.get(key, row.chat_id) for key in keys}
    unknown = {key for key, message in known.items() if message is None}
    if unknown:
        known |= await store.outbox.sent_message_ids(unknown, row.chat_id)
    urls = {key: message_link(row.chat_id, row.topic_id, known.get(key)) for key in keys}
    return replace(payload, args=with_urls(payload.args, urls))
