"""The outbox: once per key, in order per chat, leases, people who cannot be reached yet."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from storage.messages_owed import OutboxItem
from storage.models import OutboxStatus
from storage.service import Store
from tests.support.stored_games import NOW, later, new_game

LEASE = timedelta(seconds=60)


def item(key: str, chat: int, **kwargs: object) -> OutboxItem:
    return OutboxItem(key=key, chat_id=chat, payload={"text": key}, **kwargs)  # type: ignore[arg-type]


async def test_a_message_enqueued_twice_is_delivered_once(store: Store) -> None:
    assert await store.outbox.enqueue([item("help:1", 10)], NOW) == 1
    assert await store.outbox.enqueue([item("help:1", 10), item("help:2", 10)], NOW) == 1
    [first] = await store.outbox.claim("w", NOW)
    assert first.key == "help:1" and first.payload == {"text": "help:1"}
    assert await store.outbox.mark_sent(first.id, 501, NOW)
    assert await store.outbox.enqueue([item("help:1", 10)], later(seconds=1)) == 0
    [second] = await store.outbox.claim("w", later(seconds=2))
    assert second.key == "help:2"
    await store.outbox.mark_sent(second.id, 502, NOW)
    assert await store.outbox.claim("w", later(hours=1)) == []
    assert await store.outbox.sent_message_id("help:1") == 501
    assert await store.outbox.message_key(10, 502) == "help:2"
    assert (await store.outbox.counts()) == {OutboxStatus.SENT: 2}


async def test_a_claim_whose_sender_died_is_claimed_again_after_the_lease(store: Store) -> None:
    await store.outbox.enqueue([item("a", 10)], NOW)
    [row] = await store.outbox.claim("dead", NOW, lease=LEASE)
    assert row.claimed_by == "dead"
    assert await store.outbox.claim("alive", later(seconds=59)) == []
    [again] = await store.outbox.claim("alive", later(seconds=61))
    assert again.id == row.id and again.claimed_by == "alive"
    assert await store.outbox.mark_retry(row.id, "late", later(seconds=62))  # the claim is settled
    assert not await store.outbox.mark_retry(row.id, "twice", later(seconds=62))  # not claimed now
    assert await store.outbox.mark_sent(row.id, 7, later(seconds=70))
    assert not await store.outbox.mark_sent(row.id, 8, later(seconds=71))  # the first id stays
    assert await store.outbox.sent_message_id("a") == 7


async def test_rows_of_one_chat_go_out_in_order(store: Store) -> None:
    await store.outbox.enqueue(
        [item("x1", 10), item("x2", 10), item("y1", 20), item("x3", 10)], NOW
    )
    claimed = await store.outbox.claim("w", NOW)
    assert [r.key for r in claimed] == ["x1", "y1"]  # one head per chat
    x1 = claimed[0]
    assert await store.outbox.mark_retry(x1.id, "timeout", later(seconds=30))
    assert await store.outbox.claim("w", later(seconds=10)) == []  # x2 waits behind x1
    [x1_again] = await store.outbox.claim("w", later(seconds=30))
    assert x1_again.key == "x1" and x1_again.attempts == 1
    await store.outbox.mark_sent(x1_again.id, 1, later(seconds=31))
    [x2] = await store.outbox.claim("w", later(seconds=31))
    assert x2.key == "x2"
    await store.outbox.mark_failed(x2.id, "chat gone")
    [x3] = await store.outbox.claim("w", later(seconds=32))
    assert x3.key == "x3"


async def test_a_scheduled_row_holds_nothing_back(store: Store) -> None:
    await store.outbox.enqueue([item("later", 10, not_before=later(hours=1)), item("now", 10)], NOW)
    assert [r.key for r in await store.outbox.claim("w", NOW)] == ["now"]
    assert [r.key for r in await store.outbox.claim("w", later(hours=1))] == ["later"]


async def test_direct_messages_wait_for_their_person(store: Store) -> None:
    dm = dict(user_id=5)
    await store.outbox.enqueue(
        [item("card", 5, **dm), item("hand", 5, **dm), item("thread", 10)], NOW
    )
    claimed = await store.outbox.claim("w", NOW)
    assert [r.key for r in claimed] == ["card", "thread"]
    await store.outbox.mark_sent(claimed[1].id, 3, NOW)
    assert await store.outbox.mark_undeliverable(claimed[0].id, "bot not started")
    assert [r.key for r in await store.outbox.claim("w", later(hours=1))] == []
    assert await store.outbox.release_waiting(5, later(hours=2)) == 1
    [card] = await store.outbox.claim("w", later(hours=2))
    assert card.key == "card" and card.attempts == 1
    await store.outbox.mark_sent(card.id, 1, later(hours=2))
    assert [r.key for r in await store.outbox.claim("w", later(hours=2))] == ["hand"]


async def test_a_reply_finds_the_message_it_answers(store: Store) -> None:
    await store.outbox.enqueue([item("post", 10), item("answer", 10, reply_to_key="post")], NOW)
    [post] = await store.outbox.claim("w", NOW)
    await store.outbox.mark_sent(post.id, 4242, NOW)
    [answer] = await store.outbox.claim("w", NOW)
    assert answer.reply_to_key == "post" and answer.reply_to_message_id == 4242


async def test_game_messages_are_written_with_their_events(store: Store) -> None:
    game = await new_game(store)
    rows = await store.outbox.claim("w", NOW, limit=100)
    assert [r.key for r in rows] == [f"g{game.game_id}:e1"]  # the thread's head only
    assert rows[0].game_id == game.game_id and rows[0].payload["event"] == "LobbyOpened"


async def test_concurrent_senders_never_share_a_row(store: Store) -> None:
    items = [item(f"m{chat}:{n}", chat) for n in range(3) for chat in range(40)]
    await store.outbox.enqueue(items, NOW)
    seen: list[str] = []

    async def sender(name: str) -> None:
        for step in range(10):
            rows = await store.outbox.claim(name, later(seconds=step), limit=7)
            seen.extend(r.key for r in rows)
            for row in rows:
                await store.outbox.mark_sent(row.id, row.id, later(seconds=step))
            await asyncio.sleep(0)

    await asyncio.gather(*(sender(f"s{n}") for n in range(6)))
    assert sorted(seen) == sorted(i.key for i in items)
    by_chat: dict[str, list[str]] = {}
    for key in seen:
        by_chat.setdefault(key.split(":")[0], []).append(key)
    assert all(keys == sorted(keys) for keys in by_chat.values())
