"""Marks of sent messages: written at once, together when they meet; an edit's (lazy) mark
joins the next ones, or goes alone after a moment, or at once when flushed."""

from __future__ import annotations

import asyncio
import time
from datetime import timedelta
from typing import Any

import pytest
from asyncpg.connection import Connection
from sqlalchemy import event, text
from sqlalchemy.engine import Connection as SQLConnection
from sqlalchemy.engine import Engine

from storage.marks import LAZY_SECONDS, Mark
from storage.messages_owed import OutboxItem
from storage.models import OutboxStatus
from storage.service import Store
from tests.storage.conftest import truncate
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


async def test_a_lazy_mark_that_comes_during_a_write_waits_for_the_next_mark(
    store: Store,
) -> None:
    first, edit, last = await _claimed(store, 10, 20, 30)
    marks = store.outbox.marks
    before = marks.transactions
    writing = asyncio.ensure_future(marks.mark(Mark(first, 1, NOW)))
    for _ in range(3):  # the first mark's write is under way
        await asyncio.sleep(0)
    lazy = asyncio.ensure_future(marks.mark(Mark(edit, 2, NOW, lazy=True)))
    await writing
    await asyncio.sleep(LAZY_SECONDS / 5)
    assert not lazy.done(), "the lazy mark was written alone right after the write"
    await marks.mark(Mark(last, 3, NOW))
    await lazy
    assert marks.transactions - before == 2, "the lazy mark joined the next mark"
    assert (await store.outbox.counts()) == {OutboxStatus.SENT: 3}


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


async def _marks_with_next(store: Store) -> tuple[list[Any], list[Any]]:
    """Marks that claim the next row of their chat: a reply, a row scheduled for later that
    holds nothing back, a second mark of a sent row, a row waiting for its retry, no id."""
    later = NOW + timedelta(hours=1)
    items = [
        OutboxItem(key="a1", chat_id=10, payload={"text": "1"}),
        OutboxItem(key="a2", chat_id=10, payload={"text": "2"}, reply_to_key="a1"),
        OutboxItem(key="a3", chat_id=10, payload={"text": "3"}, not_before=later),
        OutboxItem(key="a4", chat_id=10, payload={"text": "4"}, reply_to_key="a3"),
        OutboxItem(key="b1", chat_id=20, payload={"text": "1"}),
        OutboxItem(key="b2", chat_id=20, payload={"text": "2"}, reply_to_key="a1"),
        OutboxItem(key="c1", chat_id=30, payload={"text": "1"}),
        OutboxItem(key="c2", chat_id=30, payload={"text": "2"}),
        OutboxItem(key="c3", chat_id=30, payload={"text": "3"}, reply_to_key="c2"),
        OutboxItem(key="d1", chat_id=40, payload={"text": "1"}),
        OutboxItem(key="d2", chat_id=40, payload={"text": "2"}),
    ]
    await store.outbox.enqueue(items, NOW)
    ids = {row.key: row.id for row in await store.outbox.claim("w", NOW)}
    marks, seen = store.outbox.marks, []

    async def mark(key: str, message: int | None, chat: int) -> None:
        settled, rows = await marks.mark(Mark(ids[key], message, NOW, next_for=("w", chat)))
        ids.update((row.key, row.id) for row in rows)
        claimed = [(r.id, r.key, r.reply_to_message_id, r.claimed_by, r.lease_until) for r in rows]
        seen.append((key, settled, claimed))

    await mark("a1", 101, 10)  # a2 next, replying to 101
    await mark("a2", 102, 10)  # a3 is for later and holds nothing: a4
    await mark("a1", 111, 10)  # sent already (keeps 101); a4 is claimed: nothing
    await mark("b1", None, 20)  # no message id; b2 replies to a message of another chat
    await mark("c1", 301, 30)
    await store.outbox.mark_retry(ids["c2"], "timed out", later)
    await mark("c1", 311, 30)  # c2 waits for its retry and holds c3 back: nothing
    await mark("c2", 302, 30)  # sent after all (its retry was due later): c3 replies to it
    await store.outbox.mark_sent(ids["d1"], 401, NOW)
    [lost] = await store.outbox.claim("x", NOW, lease=timedelta(0))  # its sender died
    await mark("d1", 411, 40)  # d2's lease ran out: claimed again
    assert lost.key == "d2"
    seen.append(("a1", await store.outbox.mark_sent(ids["a1"], 121, NOW), []))  # sent already
    return seen, await store.db.run_read(_outbox_rows)


def _outbox_rows(conn: SQLConnection) -> list[Any]:
    query = text("SELECT * FROM outbox ORDER BY id")
    return [tuple(row) for row in conn.execute(query).all()]


@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
async def test_a_mark_and_the_next_claim_in_one_statement_write_what_a_transaction_does(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    found, statements = [], []
    for on_driver in (True, False):
        await truncate(db_url, "outbox")
        store = await Store.open(db_url, migrate=False)
        store.outbox.marks.on_driver = on_driver
        run: list[str] = []
        listener = _appender(run)
        event.listen(Engine, "before_cursor_execute", listener)
        for method in ("fetch", "execute"):  # statements run on the driver itself
            monkeypatch.setattr(Connection, method, _spy(run, getattr(Connection, method)))
        try:
            found.append(await _marks_with_next(store))
        finally:
            event.remove(Engine, "before_cursor_execute", listener)
            monkeypatch.undo()
            await store.close()
        statements.append([_kind(s) for s in run if _kind(s)])
    assert found[0] == found[1], "the statement writes what the transaction writes"
    # One statement a mark and its claim instead of two (and no BEGIN and COMMIT); a mark
    # that claims nothing (d1's first, a1's last) is a plain UPDATE, also in autocommit.
    one = "one statement"
    assert statements == [
        ["claim", *[one] * 7, "mark", "claim", one, "mark"],  # then a dead sender's claim
        ["claim", *["mark", "claim"] * 7, "mark", "claim", "mark", "claim", "mark"],
    ]
    seen = found[0][0]
    assert seen[0][2][0][1:3] == ("a2", 101)
    firsts = [claimed[0][1] for _, _, claimed in seen if claimed]
    assert firsts == ["a2", "a4", "b2", "c2", "c3", "d2"]
    assert seen[2][1] is False and seen[2][2] == []
    assert seen[5][1:] == (False, [])
    assert seen[-3][2][0][2] == 302
    assert seen[-2][2][0][1] == "d2" and seen[-2][2][0][3] == "w"
    assert seen[-1][1] is False


def _kind(statement: str) -> str | None:
    statement = statement.strip()
    if statement.startswith("WITH m AS"):
        return "one statement"
    if statement.startswith("WITH chosen"):
        return "claim"
    return "mark" if "sent_message_id" in statement.split("WHERE")[0] else None


def _spy(statements: list[str], method: Any) -> Any:
    async def spy(driver: Any, sql: str, *args: Any, **kwargs: Any) -> Any:
        if _kind(sql):
            assert not driver.is_in_transaction(), "a statement of its own, in autocommit"
            statements.append(sql)
        return await method(driver, sql, *args, **kwargs)

    return spy


def _appender(statements: list[str]) -> Any:
    def append(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        statements.append(statement)

    return append


async def _marks_that_meet(store: Store) -> tuple[list[Any], list[Any]]:
    """Marks of five chats at once (they meet and go together): each next row replies to
    the one marked, one mark has no next to claim, one row was sent already, and one chat's
    next row waits behind a row in retry."""
    later = NOW + timedelta(hours=1)
    items = []
    for chat in (10, 20, 30, 40, 50):
        items.append(OutboxItem(key=f"{chat}a", chat_id=chat, payload={"n": 1}))
        items.append(
            OutboxItem(key=f"{chat}b", chat_id=chat, payload={"n": 2}, reply_to_key=f"{chat}a")
        )
    await store.outbox.enqueue(items, NOW)
    ids = {row.key: row.id for row in await store.outbox.claim("w", NOW)}
    await store.outbox.mark_sent(ids["40a"], 400, NOW)  # sent already: its mark settles nothing
    marks = [
        Mark(ids[f"{chat}a"], 100 + chat, NOW, next_for=("w", chat) if chat != 20 else None)
        for chat in (10, 20, 30, 40)
    ]
    seen = await asyncio.gather(*(store.outbox.marks.mark(mark) for mark in marks))
    ids.update((row.key, row.id) for _, rows in seen for row in rows)
    await store.outbox.mark_retry(ids["30b"], "timed out", later)
    retried = [(OutboxItem(key="30c", chat_id=30, payload={"n": 3}))]
    await store.outbox.enqueue(retried, NOW)
    again = await store.outbox.marks.mark(Mark(ids["30a"], 131, NOW, next_for=("w", 30)))
    found = [
        (ok, [(r.key, r.reply_to_message_id, r.claimed_by) for r in rows])
        for ok, rows in [*seen, again]
    ]
    return found, await store.db.run_read(_outbox_rows)


@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
async def test_marks_that_meet_are_one_statement_that_writes_what_a_transaction_does(
    db_url: str,
) -> None:
    found = []
    for on_driver in (True, False):
        await truncate(db_url, "outbox")
        store = await Store.open(db_url, migrate=False)
        store.outbox.marks.on_driver = on_driver
        transactions = store.outbox.marks.transactions
        try:
            found.append((await _marks_that_meet(store), store.outbox.marks.transactions))
        finally:
            await store.close()
        assert transactions == 0
    (one, by_statement), (steps, by_transaction) = found
    assert one == steps, "the statement writes what the transactions write"
    assert by_statement == by_transaction < 5 + 1, "the marks met"
    marked = one[0]
    assert marked[0] == (True, [("10b", 110, "w")])
    assert marked[1] == (True, [])  # no next asked
    assert marked[3] == (False, [("40b", 400, "w")])  # 40a was sent before, with 400
    assert marked[-1] == (False, []), "30b waits for its retry and holds 30c back"
