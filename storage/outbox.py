"""The outbox: messages owed to chats and people, written with the events that owe them.

Delivery order: rows of one chat go out in id order. A row is claimable only when no
earlier row of the same chat is still unfinished — claimed, waiting for its person, or
pending and either due or already tried once (a failed row in back-off holds the rows
behind it). An untried row scheduled for later (`not_before`) holds nothing back. So
each claim returns at most the head row of each chat. Ids of one game's rows are
allocated under that game's lock, so a game's messages keep the order of its events.

A group the bot was removed from parks its head row the same way (WAITING, `park_chat`),
which holds the chat's later rows until the bot is back (`release_chat`).

Claims are leases: a row claimed by a sender that died is claimable again once its
lease has passed (delivery is at least once; mark_sent keeps the first message id).
On PostgreSQL the claim locks candidate rows FOR UPDATE SKIP LOCKED, so several senders
share the queue without waiting on each other; on SQLite it runs in a BEGIN IMMEDIATE
transaction, which already admits one writer at a time.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache
from typing import Any

from sqlalchemy import and_, delete, exists, func, insert, or_, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.orm import aliased

from storage.database import Database
from storage.models import OutboxRecord
from storage.planning import OutboxItem
from storage.sql import dumps, insert_for, loads

PENDING = "pending"
CLAIMED = "claimed"
SENT = "sent"
WAITING = "waiting_for_person"
FAILED = "failed"
UNFINISHED = (PENDING, CLAIMED, WAITING)


@dataclass(frozen=True)
class OutboxRow:
    """A claimed message; reply_to_message_id is resolved from reply_to_key when sent."""

    id: int
    key: str
    game_id: int | None
    chat_id: int
    topic_id: int
    user_id: int | None
    payload: dict[str, Any]
    reply_to_key: str | None
    reply_to_message_id: int | None
    attempts: int
    claimed_by: str | None
    lease_until: datetime | None


def insert_items(
    conn: Connection,
    items: Iterable[OutboxItem],
    now: datetime,
    game_id: int | None,
    *,
    count: bool = True,
) -> int:
    """Store items in order; an item whose key exists already is skipped.

    Returns how many were new (with count=False, how many were given: one round trip less).
    """
    rows = [
        {
            "key": item.key,
            "game_id": game_id,
            "chat_id": item.chat_id,
            "topic_id": item.topic_id,
            "user_id": item.user_id,
            "payload": dumps(item.payload),
            "reply_to_key": item.reply_to_key,
            "status": PENDING,
            "attempts": 0,
            "next_attempt_at": item.not_before or now,
            "created_at": now,
        }
        for item in items
    ]
    if not rows:
        return 0
    keys = [row["key"] for row in rows]
    if len(set(keys)) != len(keys):
        raise ValueError(f"outbox keys repeat within one batch: {keys}")
    insert = _insert(conn.dialect.name)
    # Rows are inserted in the order given, so ids follow that order.
    if not count:
        conn.execute(insert, rows)
        return len(rows)
    return len(conn.execute(insert.returning(OutboxRecord.id), rows).all())


@cache
def _insert(dialect: str) -> Any:
    return insert_for(dialect, OutboxRecord).on_conflict_do_nothing(index_elements=["key"])


def _claimable(now: datetime) -> Any:
    """Due pending rows and expired claims, with no unfinished earlier row in their chat."""
    o, earlier = OutboxRecord, aliased(OutboxRecord)
    ready = or_(
        and_(o.status == PENDING, o.next_attempt_at <= now),
        and_(o.status == CLAIMED, o.lease_until <= now),
    )
    holding = or_(
        earlier.status.in_((CLAIMED, WAITING)),
        and_(earlier.status == PENDING, or_(earlier.next_attempt_at <= now, earlier.attempts > 0)),
    )
    ahead = exists().where(earlier.chat_id == o.chat_id, earlier.id < o.id, holding)
    return and_(ready, ~ahead)


def _claim(
    conn: Connection, worker: str, now: datetime, limit: int, lease: timedelta
) -> list[OutboxRow]:
    o = OutboxRecord
    candidates = select(o.id).where(_claimable(now)).order_by(o.id).limit(limit)
    if conn.dialect.name == "postgresql":
        candidates = candidates.with_for_update(of=o, skip_locked=True)
    chosen = candidates.cte("chosen")
    claim = (
        update(o)
        .where(o.id.in_(select(chosen.c.id)))
        .values(status=CLAIMED, claimed_by=worker, lease_until=now + lease)
        .returning(o)
    )
    records = sorted(conn.execute(claim).all(), key=lambda r: r.id)
    replies = _sent_ids(conn, {r.reply_to_key for r in records if r.reply_to_key})
    # A reply only within one chat: a group that became a supergroup numbers anew.
    replied = {r.id: _in_chat(replies, r.reply_to_key, r.chat_id) for r in records}
    return [
        OutboxRow(
            id=r.id,
            key=r.key,
            game_id=r.game_id,
            chat_id=r.chat_id,
            topic_id=r.topic_id,
            user_id=r.user_id,
            payload=loads(r.payload),
            reply_to_key=r.reply_to_key,
            reply_to_message_id=replied[r.id],
            attempts=r.attempts,
            claimed_by=r.claimed_by,
            lease_until=r.lease_until,
        )
        for r in records
    ]


def _sent_ids(conn: Connection, keys: set[str]) -> dict[str, tuple[int, int]]:
    """key -> (chat id, message id) of the rows among `keys` that were sent."""
    if not keys:
        return {}
    o = OutboxRecord
    query = select(o.key, o.chat_id, o.sent_message_id).where(
        o.key.in_(keys), o.status == SENT, o.sent_message_id.is_not(None)
    )
    return {key: (chat, message) for key, chat, message in conn.execute(query).all() if message}


def _in_chat(sent: dict[str, tuple[int, int]], key: str | None, chat_id: int) -> int | None:
    found = sent.get(key) if key else None
    return found[1] if found is not None and found[0] == chat_id else None


def _release_behind(conn: Connection, user_id: int, now: datetime, first: OutboxItem) -> int:
    """Store `first`, then move the person's unsent private rows behind it, parked ones due."""
    o = OutboxRecord
    mine = and_(o.chat_id == user_id, o.user_id == user_id, o.status.in_((PENDING, WAITING)))
    rows = conn.execute(select(o).where(mine).order_by(o.id)).all()
    parked = sum(row.status == WAITING for row in rows)
    if not parked:
        insert_items(conn, [first], now, None)
        return 0
    conn.execute(delete(o).where(o.id.in_([row.id for row in rows])))
    insert_items(conn, [first], now, None)
    columns = [c.name for c in o.__table__.columns if c.name != "id"]
    copies = []
    for row in rows:
        copy = {name: getattr(row, name) for name in columns}
        if row.status == WAITING:
            copy |= {"status": PENDING, "next_attempt_at": now}
        copies.append(copy)
    conn.execute(insert(o), copies)  # in the order given, so ids keep the old order
    return parked


def _rowcount(conn: Connection, statement: Any) -> int:
    return int(conn.execute(statement).rowcount or 0)


def _scalar(conn: Connection, statement: Any) -> Any:
    return conn.execute(statement).scalar()


class OutboxStore:
    """Claiming and settling outbox rows (the sender's side), and enqueueing outside games."""

    db: Database

    async def enqueue(self, items: Iterable[OutboxItem], now: datetime) -> int:
        """Messages that belong to no game command (a reply to /help...). Same table.

        Returns how many were new: an item whose key is stored already is skipped."""
        return await self.db.run_write(insert_items, list(items), now, None)

    async def claim_outbox(
        self,
        worker: str,
        now: datetime,
        limit: int = 20,
        lease: timedelta = timedelta(seconds=60),
    ) -> list[OutboxRow]:
        """Claim up to `limit` deliverable rows (at most one per chat), oldest first."""
        return await self.db.run_write(_claim, worker, now, limit, lease)

    async def mark_sent(self, row_id: int, message_id: int | None, now: datetime) -> bool:
        """Delivered. A row already marked sent (a second sender after a lease) keeps its id."""
        return await self._settle(
            row_id,
            (PENDING, CLAIMED, WAITING),
            status=SENT,
            sent_message_id=message_id,
            sent_at=now,
            last_error=None,
        )

    async def mark_retry(self, row_id: int, error: str, next_attempt_at: datetime) -> bool:
        """A failed attempt: try again at next_attempt_at; later rows of the chat wait."""
        return await self._settle(
            row_id,
            (CLAIMED,),
            status=PENDING,
            attempts=OutboxRecord.attempts + 1,
            last_error=error,
            next_attempt_at=next_attempt_at,
        )

    async def mark_undeliverable(self, row_id: int, reason: str) -> bool:
        """The person cannot get direct messages yet: park the row until release_waiting."""
        return await self._settle(
            row_id,
            (CLAIMED,),
            status=WAITING,
            attempts=OutboxRecord.attempts + 1,
            last_error=reason,
        )

    async def mark_failed(self, row_id: int, reason: str) -> bool:
        """Give up on a row for good (the chat is gone...); later rows go ahead."""
        return await self._settle(
            row_id, (PENDING, CLAIMED, WAITING), status=FAILED, last_error=reason
        )

    async def release_waiting(
        self, user_id: int, now: datetime, first: OutboxItem | None = None
    ) -> int:
        """The person started the bot: their parked rows are due again, in their old order.

        With `first` (a greeting), it goes out before them: the private chat's unsent rows
        are stored again behind it (new ids, same keys and contents). Returns how many rows
        had been parked."""
        if first is None:
            o = OutboxRecord
            query = (
                update(o)
                .where(o.user_id == user_id, o.status == WAITING)
                .values(status=PENDING, next_attempt_at=now)
            )
            return await self.db.run_write(_rowcount, query)
        return await self.db.run_write(_release_behind, user_id, now, first)

    async def park_chat(self, row_id: int, reason: str) -> bool:
        """The bot cannot post in the row's group (kicked, not a member): park the row.

        A parked row holds every later row of its chat, so the chat is not tried again
        until release_chat; True if the row was parked (it was still claimed)."""
        return await self.mark_undeliverable(row_id, reason)

    async def release_chat(self, chat_id: int, now: datetime) -> int:
        """The bot is back in the group: its parked rows are due again, in their old order."""
        o = OutboxRecord
        query = (
            update(o)
            .where(o.chat_id == chat_id, o.user_id.is_(None), o.status == WAITING)
            .values(status=PENDING, next_attempt_at=now)
        )
        return await self.db.run_write(_rowcount, query)

    async def sent_message_id(self, key: str, chat_id: int | None = None) -> int | None:
        """The Telegram message id an outbox row produced, once it was sent (in `chat_id`)."""
        found = await self.db.run_read(_sent_ids, {key})
        if chat_id is None:
            return found[key][1] if key in found else None
        return _in_chat(found, key, chat_id)

    async def message_key(self, chat_id: int, message_id: int) -> str | None:
        """The key of the outbox row whose sent message in `chat_id` is `message_id`."""
        o = OutboxRecord
        query = (
            select(o.key)
            .where(o.chat_id == chat_id, o.sent_message_id == message_id)
            .order_by(o.id.desc())
            .limit(1)
        )
        found: str | None = await self.db.run_read(_scalar, query)
        return found

    async def outbox_counts(self) -> dict[str, int]:
        """How many rows are in each status (for health checks)."""
        o = OutboxRecord
        query = select(o.status, func.count()).group_by(o.status)
        rows = await self.db.run_read(lambda conn: conn.execute(query).all())
        return {status: count for status, count in rows}

    async def _settle(self, row_id: int, only_from: tuple[str, ...], **values: Any) -> bool:
        o = OutboxRecord
        query = (
            update(o)
            .where(o.id == row_id, o.status.in_(only_from))
            .values(claimed_by=None, lease_until=None, **values)
        )
        return bool(await self.db.run_write(_rowcount, query))
