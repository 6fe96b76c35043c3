"""Marks of sent messages: written at once, together when they meet; an edit's (lazy) mark
joins the next ones, or goes alone after a moment, or at once when flushed."""

from __future__ import annotations

import asyncio
import time

from storage.marks import LAZY_SECONDS, Mark
from storage.messages_owed import OutboxItem
from storage.models import OutboxStatus
from storage.service import Store
from tests.support.stored_games import NOW


async def _claimed(store: Store, *chats: int) -> list[int]:
    items = [OutboxItem(key=f"m{chat}", chat_id=chat, payload={"text": "x"}) for chat in chats]
    await store.outbox.enqueue(items, NOW)
    return [row.id for row in await store.outbox.claim("w", NOW)]


async def test_a_lazy_mark_joins_the_next_mark_in_one_transaction(store: Store) -> None:
    edit, send = await _claimed(store, 10, 20)
    marks = store.outbox.marks
    before = marks.transactions
    lazy = asyncio.ensure_future(marks.mark(Mark(edit, 1, NOW, lazy=True)))
    await asyncio.sleep(0.05)
    assert not lazy.done(), "a lazy mark alone waits"
    await marks.mark(Mark(send, 2, NOW))
    await lazy
    assert marks.transactions - before == 1
    assert (await store.outbox.counts()) == {OutboxStatus.SENT: 2}


async def test_a_lazy_mark_alone_is_written_after_a_moment_or_when_flushed(store: Store) -> None:
    first, second = await _claimed(store, 10, 20)
    marks = store.outbox.marks
    began = time.perf_counter()
    await marks.mark(Mark(first, 1, NOW, lazy=True))
    assert time.perf_counter() - began >= LAZY_SECONDS * 0.9
    began = time.perf_counter()
    pending = asyncio.ensure_future(marks.mark(Mark(second, 2, NOW, lazy=True)))
    await asyncio.sleep(0)
    marks.flush()
    await pending
    assert time.perf_counter() - began < LAZY_SECONDS / 2
    assert (await store.outbox.counts()) == {OutboxStatus.SENT: 2}
