"""A game's index as it stands when its row is sent: its content built from the game's
state and whole log (bot.announce.index), each day's opening post resolved to the message
it sent in the chat, for the renderer to link to (it never reads storage itself)."""

from __future__ import annotations

from dataclasses import replace

from bot.announce.index import INDEX, index_args
from bot.delivery.sent_ids import SentIds
from bot.payload import encode, upgrade
from storage.outbox import OutboxRow
from storage.service import Store


async def as_sent_now(row: OutboxRow, store: Store, sent_ids: SentIds) -> OutboxRow:
    """The row with the index's content of now when it is an index row (else the row)."""
    if row.payload.get("kind") != INDEX:
        return row
    game_id = row.game_id if row.game_id is not None else int(row.payload["game"])
    game = await store.load(game_id)
    events = await store.events(game_id)
    args = index_args(game_id, game, events)
    known = {d["post"]: sent_ids.get(d["post"], row.chat_id) for d in args["days"]}
    unknown = {key for key, message in known.items() if message is None}
    if unknown:
        known |= await store.outbox.sent_message_ids(unknown, row.chat_id)
    for day in args["days"]:
        day["message"] = known.get(day.pop("post"))
    args |= {"game": game_id, "chat": row.chat_id, "topic": row.topic_id}
    return replace(row, payload={**row.payload, "args": encode(upgrade(args))})
