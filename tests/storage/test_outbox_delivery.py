"""The outbox under Telegram's limits: deferred rows, split messages, coalesced edits, pruning."""

from __future__ import annotations

import threading
from datetime import timedelta
from functools import partial

from sqlalchemy import select

from engine import commands as cmd
from storage.database import WriterThread
from storage.messages_owed import OutboxItem
from storage.models import OutboxRecord, OutboxStatus
from storage.service import Store
from storage.sql import loads
from tests.support.stored_games import CHAT, NOW, later, new_game, planner

KEEP = timedelta(days=7)


def item(key: str, chat: int, **payload: object) -> OutboxItem:
    return OutboxItem(key=key, chat_id=chat, payload={"text": key, **payload})


def edit(key: str, chat: int, target: str, text: str) -> OutboxItem:
    return OutboxItem(key=key, chat_id=chat, payload={"op": "edit", "target": target, "text": text})


async def test_a_deferred_row_holds_its_chat_and_counts_no_attempt(store: Store) -> None:
    await store.outbox.enqueue([item("x1", 10), item("x2", 10), item("y1", 20)], NOW)
    x1, y1 = await store.outbox.claim("w", NOW)
    assert await store.outbox.defer(x1.id, later(seconds=3))
    await store.outbox.mark_sent(y1.id, 1, NOW)
    assert await store.outbox.claim("w", later(seconds=2)) == [], "x2 waits behind x1"
    [again] = await store.outbox.claim("w", later(seconds=3))
    assert again.key == "x1" and again.attempts == 0


async def test_the_parts_sent_so_far_are_kept_with_the_row(store: Store) -> None:
    await store.outbox.enqueue([item("long", 10)], NOW)
    [row] = await store.outbox.claim("w", NOW)
    assert await store.outbox.record_parts(row.id, [41, 42], in_doubt=2)
    await store.outbox.mark_retry(row.id, "timed out", later(seconds=60))
    [again] = await store.outbox.claim("w", later(seconds=60))
    assert again.payload == {"text": "long", "sent_parts": [41, 42], "in_doubt": 2}


async def test_an_edit_replaces_a_pending_edit_of_the_same_message(store: Store) -> None:
    await store.outbox.enqueue([item("lobby", 10)], NOW)
    [lobby] = await store.outbox.claim("w", NOW)
    await store.outbox.enqueue([edit("e1", 10, "lobby", "Alice")], NOW)  # behind the claimed post
    await store.outbox.enqueue([edit("e2", 10, "lobby", "Alice, Bob")], NOW)
    await store.outbox.enqueue([edit("x1", 10, "other", "other")], NOW)
    await store.outbox.enqueue([edit("e3", 10, "lobby", "Alice, Bob, Carol")], NOW)
    await store.outbox.mark_sent(lobby.id, 5, NOW)
    [first] = await store.outbox.claim("w", NOW)
    assert first.key == "e1" and first.payload["text"] == "Alice, Bob, Carol"
    await store.outbox.enqueue([edit("e4", 10, "lobby", "Bob")], NOW)  # e1 is claimed: queued anew
    await store.outbox.mark_sent(first.id, 5, NOW)
    [second] = await store.outbox.claim("w", NOW)
    assert second.key == "x1"
    await store.outbox.mark_sent(second.id, 6, NOW)
    [third] = await store.outbox.claim("w", NOW)
    assert third.key == "e4" and third.payload["text"] == "Bob"
    assert (await store.outbox.counts()) == {OutboxStatus.SENT: 3, OutboxStatus.CLAIMED: 1}


async def _deliver_all(store: Store) -> None:
    message_id = 100
    while rows := await store.outbox.claim("w", NOW, limit=100):
        for row in rows:
            message_id += 1
            await store.outbox.mark_sent(row.id, message_id, NOW)


async def _rows(store: Store) -> dict[str, tuple[str, int | None, str]]:
    """The stored rows as they are: status as the plain string older rows hold too."""
    o = OutboxRecord
    query = select(o.key, o.status, o.sent_message_id, o.payload)
    found = await store.db.run_read(lambda conn: conn.execute(query).all())
    return {key: (status, sent, payload) for key, status, sent, payload in found}


async def test_old_sent_rows_are_pruned_but_running_games_keep_their_message_ids(
    store: Store,
) -> None:
    ended = await new_game(store, chat_id=CHAT)
    await store.execute(ended.game_id, cmd.EndGame(actor=1, actor_is_admin=True), NOW, planner)
    running = await new_game(store, chat_id=CHAT - 1)
    await store.outbox.enqueue([item("help", 10)], NOW)
    await _deliver_all(store)
    await store.outbox.enqueue([item("owed", 11)], NOW)  # never sent: untouched however old
    before = await _rows(store)
    running_keys = [k for k in before if k.startswith(f"g{running.game_id}:")]
    assert running_keys and any(k.startswith(f"g{ended.game_id}:") for k in before)

    assert await store.outbox.prune(later(days=6), KEEP) == 0, "nothing is old enough yet"
    touched = await store.outbox.prune(later(days=8), KEEP)
    after = await _rows(store)
    assert touched == len(before) - 1, "every settled row deleted or stripped"
    assert set(after) == {*running_keys, "owed"}, "ended games and no-game rows deleted"
    for key in running_keys:
        status, sent, payload = after[key]
        assert status == "sent" and sent == before[key][1] and loads(payload) == {}
        assert await store.outbox.sent_message_id(key) == sent  # replies and edits still find it
        assert sent is not None and await store.outbox.message_key(CHAT - 1, sent) == key  # /void
    assert after["owed"][0] == "pending" and loads(after["owed"][2]) == {"text": "owed"}
    assert await store.outbox.prune(later(days=9), KEEP) == 0, "nothing twice"


def test_an_urgent_write_goes_ahead_of_the_queued_ones() -> None:
    """SQLite's writer thread: a sent message's mark does not wait behind game commands."""
    writer = WriterThread()
    gate, done = threading.Event(), list[str]()
    writer.submit(gate.wait)  # the writer is busy with a long transaction
    futures = [writer.submit(partial(done.append, f"command {n}")) for n in range(3)]
    futures.append(writer.submit_urgent(lambda: done.append("mark")))
    gate.set()
    for future in futures:
        future.result(timeout=5)
    writer.shutdown()
    assert done == ["mark", "command 0", "command 1", "command 2"]


async def test_an_edit_that_keeps_its_place_follows_the_posts_before_it(store: Store) -> None:
    """A game's index edited when a day opens links to that day's post: it goes after it."""
    await store.outbox.enqueue([item("index", 10)], NOW)
    [index] = await store.outbox.claim("w", NOW)
    await store.outbox.enqueue([edit("e1", 10, "index", "void")], NOW)
    await store.outbox.enqueue([item("day2", 10)], NOW)
    kept = OutboxItem(
        key="e2",
        chat_id=10,
        payload={"op": "edit", "target": "index", "text": "day 2", "keep_place": True},
    )
    await store.outbox.enqueue([kept], NOW)
    await store.outbox.mark_sent(index.id, 5, NOW)
    order = []
    while rows := await store.outbox.claim("w", NOW):
        for row in rows:
            order.append((row.key, row.payload["text"]))
            await store.outbox.mark_sent(row.id, 6 + len(order), NOW)
    assert order == [("e1", "void"), ("day2", "day2"), ("e2", "day 2")]
