"""The outbox: messages owed to chats and people, written with the events that owe them.

Delivery order: rows of one chat go out in id order. A row is claimable only when no
earlier row of the same chat is still unfinished — claimed, waiting for its person, or
pending and either due or already tried once (a failed row in back-off holds the rows
behind it). An untried row scheduled for later (`not_before`) holds nothing back. So
each claim returns at most the head row of each chat. Ids of one game's rows are
allocated under that game's lock, so a game's messages keep the order of its events.

A group the bot was removed from parks its head row the same way (WAITING, `park_chat`),
which holds the chat's later rows until the bot is back (`release_chat`).

A row the sender could not send yet because its chat is at Telegram's limit is deferred:
pending again, due when the slot frees, its attempts unchanged and `last_error` set, which
makes it hold the rows behind it like a row in back-off. An edit of a message whose earlier
edit is still pending replaces that edit's payload instead of queueing another.

Claims are leases (storage.leases): a row claimed by a sender that died is claimable
again once its lease has passed (delivery is at least once; mark_sent keeps the first
message id).
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import (
    and_,
    bindparam,
    delete,
    exists,
    func,
    insert,
    literal_column,
    or_,
    select,
    update,
)
from sqlalchemy.engine import Connection
from sqlalchemy.orm import aliased

from engine.state import Phase
from storage.database import Database
from storage.marks import Mark, Marks
from storage.messages_owed import OutboxItem, insert_items
from storage.models import GameRecord, OutboxRecord, OutboxStatus
from storage.sql import dumps, loads, rowcount

DEFERRED = "deferred: chat at its limit"
# The statuses of ix_outbox_unfinished_per_chat's WHERE, in its order.
UNFINISHED = (OutboxStatus.PENDING, OutboxStatus.CLAIMED, OutboxStatus.WAITING)
STRIPPED = "{}"  # the payload of a pruned row that must stay findable


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


@functools.cache
def _claim_statement(postgresql: bool, in_chats: bool) -> Any:
    """The claim as one UPDATE ... RETURNING, built once (building it cost more than running
    it): parameters now, limit, worker, until, and chats (when `in_chats`)."""
    o = OutboxRecord
    claimable = _claimable(bindparam("now"))
    if in_chats:
        claimable = and_(claimable, o.chat_id.in_(bindparam("chats", expanding=True)))
    candidates = select(o.id).where(claimable).order_by(o.id).limit(bindparam("limit"))
    if postgresql:  # several workers share the queue without waiting on each other
        candidates = candidates.with_for_update(of=o, skip_locked=True)
    chosen = candidates.cte("chosen")
    # The message a row replies to, when that one was sent: in the same round trip. Only
    # within one chat: a group that became a supergroup numbers its messages anew.
    # (The row's columns named with their table: SQLite writes RETURNING's unqualified.)
    sent, table = aliased(OutboxRecord), OutboxRecord.__tablename__
    replied = (
        select(sent.sent_message_id)
        .where(
            sent.key == literal_column(f"{table}.reply_to_key"),
            sent.chat_id == literal_column(f"{table}.chat_id"),
            sent.status == OutboxStatus.SENT,
        )
        .scalar_subquery()
        .label("replied_message_id")
    )
    return (
        update(o)
        .where(o.id.in_(select(chosen.c.id)))
        .values(
            claimed_by=bindparam("worker"),
            lease_until=bindparam("until"),
            status=OutboxStatus.CLAIMED,
        )
        .returning(o, replied)
    )


def _claimable(now: Any) -> Any:
    """Due pending rows and expired claims, with no unfinished earlier row in their chat."""
    o, earlier = OutboxRecord, aliased(OutboxRecord)
    ready = or_(
        and_(o.status == OutboxStatus.PENDING, o.next_attempt_at <= now),
        and_(o.status == OutboxStatus.CLAIMED, o.lease_until <= now),
    )
    tried = or_(
        earlier.next_attempt_at <= now, earlier.attempts > 0, earlier.last_error.is_not(None)
    )
    holding = or_(
        earlier.status.in_((OutboxStatus.CLAIMED, OutboxStatus.WAITING)),
        and_(earlier.status == OutboxStatus.PENDING, tried),
    )
    # The index of unfinished rows per chat answers both (its WHERE repeated word for word,
    # as SQLite's planner needs): no scan of a chat's sent history.
    unfinished = o.status.in_(UNFINISHED)
    ahead = exists().where(
        earlier.chat_id == o.chat_id,
        earlier.status.in_(UNFINISHED),
        earlier.id < o.id,
        holding,
    )
    return and_(unfinished, ready, ~ahead)


@dataclass(frozen=True)
class Handoff:
    """Rows a write claimed for this process's sender at once (no claim of its own needed),
    and the chats whose new rows wait behind an unfinished earlier row."""

    rows: tuple[OutboxRow, ...] = ()
    held: frozenset[int] = frozenset()


def claim_new(
    conn: Connection, items: Sequence[OutboxItem], now: datetime, worker: str, lease: timedelta
) -> Handoff:
    """In the transaction that stored `items`: claim the head rows of their chats."""
    due = due_items(items, now)
    if not due:
        return Handoff()
    chats = {item.chat_id for item in due}
    return handoff_of(due, _claim(conn, worker, now, len(chats), lease, chats))


def due_items(items: Sequence[OutboxItem], now: datetime) -> list[OutboxItem]:
    """The items that may go out now (no `not_before` still ahead)."""
    return [item for item in items if item.not_before is None or item.not_before <= now]


def handoff_of(due: Sequence[OutboxItem], rows: Sequence[OutboxRow]) -> Handoff:
    """The rows claimed for the due items, and the chats where some of those still wait."""
    chats = Counter(item.chat_id for item in due)
    keys = {item.key for item in due}
    first = {row.chat_id for row in rows if row.key in keys}
    held = frozenset(chat for chat, n in chats.items() if n > (1 if chat in first else 0))
    return Handoff(tuple(sorted(rows, key=lambda row: row.id)), held)


def claim_next(
    conn: Connection, wanted: dict[int, tuple[str, datetime]], lease: timedelta
) -> dict[int, list[OutboxRow]]:
    """For each chat in `wanted` (chat -> (worker, now)), claim its head row if it is ready."""
    found: dict[int, list[OutboxRow]] = {}
    by_worker: dict[tuple[str, datetime], set[int]] = {}
    for chat, (worker, now) in wanted.items():
        by_worker.setdefault((worker, now), set()).add(chat)
    for (worker, now), chats in by_worker.items():
        for row in _claim(conn, worker, now, len(chats), lease, chats):
            found.setdefault(row.chat_id, []).append(row)
    return found


def _claim(
    conn: Connection,
    worker: str,
    now: datetime,
    limit: int,
    lease: timedelta,
    chats: set[int] | None = None,
) -> list[OutboxRow]:
    """Claim up to `limit` claimable rows (of `chats` only, if given) for `worker`."""
    statement = _claim_statement(conn.dialect.name == "postgresql", chats is not None)
    params: dict[str, Any] = {"now": now, "limit": limit, "worker": worker}
    params["until"] = now + lease
    if chats is not None:
        params["chats"] = sorted(chats)
    claimed = conn.execute(statement, params).all()
    return [claimed_row(r) for r in sorted(claimed, key=lambda r: r.id)]


def claimed_row(r: Any) -> OutboxRow:
    """An outbox row as a claim returns it, with `replied_message_id` beside its columns."""
    lease_until = r.lease_until.astimezone(UTC) if r.lease_until is not None else None
    return OutboxRow(
        id=r.id,
        key=r.key,
        game_id=r.game_id,
        chat_id=r.chat_id,
        topic_id=r.topic_id,
        user_id=r.user_id,
        payload=loads(r.payload),
        reply_to_key=r.reply_to_key,
        reply_to_message_id=r.replied_message_id or None,
        attempts=r.attempts,
        claimed_by=r.claimed_by,
        lease_until=lease_until,
    )


def _sent_ids(conn: Connection, keys: set[str]) -> dict[str, tuple[int, int]]:
    """key -> (chat id, message id) of the rows among `keys` that were sent."""
    if not keys:
        return {}
    o = OutboxRecord
    query = select(o.key, o.chat_id, o.sent_message_id).where(
        o.key.in_(keys), o.status == OutboxStatus.SENT, o.sent_message_id.is_not(None)
    )
    return {key: (chat, message) for key, chat, message in conn.execute(query).all() if message}


def _in_chat(sent: dict[str, tuple[int, int]], key: str | None, chat_id: int) -> int | None:
    found = sent.get(key) if key else None
    return found[1] if found is not None and found[0] == chat_id else None


def _release_behind(conn: Connection, user_id: int, now: datetime, first: OutboxItem) -> int:
    """Store `first`, then move the person's unsent private rows behind it, parked ones due."""
    o = OutboxRecord
    mine = and_(
        o.chat_id == user_id,
        o.user_id == user_id,
        o.status.in_((OutboxStatus.PENDING, OutboxStatus.WAITING)),
    )
    rows = conn.execute(select(o).where(mine).order_by(o.id)).all()
    parked = sum(1 for row in rows if row.status == OutboxStatus.WAITING)
    if not parked:
        insert_items(conn, [first], now, None)
        return 0
    conn.execute(delete(o).where(o.id.in_([row.id for row in rows])))
    insert_items(conn, [first], now, None)
    columns = [c.name for c in o.__table__.columns if c.name != "id"]
    copies = []
    for row in rows:
        copy = {name: getattr(row, name) for name in columns}
        if row.status == OutboxStatus.WAITING:
            copy |= {"status": OutboxStatus.PENDING, "next_attempt_at": now}
        copies.append(copy)
    conn.execute(insert(o), copies)  # in the order given, so ids keep the old order
    return parked


def _old_settled(cutoff: datetime) -> Any:
    o = OutboxRecord
    return and_(
        o.status.in_((OutboxStatus.SENT, OutboxStatus.FAILED)),
        func.coalesce(o.sent_at, o.created_at) < cutoff,
    )


def _delete_old(conn: Connection, cutoff: datetime, batch: int) -> int:
    o, g = OutboxRecord, GameRecord
    ended = select(g.id).where(g.status == Phase.ENDED.value, g.updated_at < cutoff)
    gone = or_(o.game_id.is_(None), o.game_id.in_(ended))
    chosen = select(o.id).where(_old_settled(cutoff), gone).limit(batch)
    return rowcount(conn, delete(o).where(o.id.in_(chosen)))


def _strip_old(conn: Connection, cutoff: datetime, batch: int) -> int:
    o = OutboxRecord
    chosen = select(o.id).where(_old_settled(cutoff), o.payload != STRIPPED).limit(batch)
    return rowcount(conn, update(o).where(o.id.in_(chosen)).values(payload=STRIPPED))


def _scalar(conn: Connection, statement: Any) -> Any:
    return conn.execute(statement).scalar()


class Outbox:
    """Claiming and settling outbox rows (the sender's side), and enqueueing outside games."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.marks = Marks(db)

    async def enqueue(self, items: Iterable[OutboxItem], now: datetime) -> int:
        """Messages that belong to no game command (a reply to /help...). Same table.

        Returns how many were new: an item whose key is stored already is skipped."""
        return await self.db.run_write(insert_items, list(items), now, None)

    async def enqueue_claimed(
        self,
        items: Iterable[OutboxItem],
        now: datetime,
        worker: str,
        lease: timedelta = timedelta(seconds=60),
    ) -> Handoff:
        """Like enqueue; in the same transaction, the head rows of their chats are claimed
        for `worker`, whose sender takes them from the Handoff without a claim of its own."""
        given = list(items)

        def write(conn: Connection) -> Handoff:
            insert_items(conn, given, now, None, count=False)
            return claim_new(conn, given, now, worker, lease)

        return await self.db.run_write(write)

    async def claim(
        self,
        worker: str,
        now: datetime,
        limit: int = 20,
        lease: timedelta = timedelta(seconds=60),
    ) -> list[OutboxRow]:
        """Claim up to `limit` deliverable rows (at most one per chat), oldest first."""
        return await self.db.run_write(_claim, worker, now, limit, lease)

    async def mark_sent(
        self,
        row_id: int,
        message_id: int | None,
        now: datetime,
        committed: Callable[[], object] | None = None,
    ) -> bool:
        """Delivered. A row already marked sent (a second sender after a lease) keeps its id.

        Written at once, ahead of queued writes: until it commits, a crash resends it.
        `committed()` runs right after COMMIT (to measure that window)."""
        settled, _ = await self.marks.mark(Mark(row_id, message_id, now, committed))
        return settled

    async def mark_retry(self, row_id: int, error: str, next_attempt_at: datetime) -> bool:
        """A failed attempt: try again at next_attempt_at; later rows of the chat wait."""
        return await self._settle(
            row_id,
            (OutboxStatus.CLAIMED,),
            status=OutboxStatus.PENDING,
            attempts=OutboxRecord.attempts + 1,
            last_error=error,
            next_attempt_at=next_attempt_at,
        )

    async def defer(self, row_id: int, until: datetime, reason: str = DEFERRED) -> bool:
        """Not sent, not failed (its chat is at its limit or paused): due again at `until`.

        Attempts stay as they were; the row keeps holding the rows behind it in its chat."""
        return await self._settle(
            row_id,
            (OutboxStatus.CLAIMED,),
            status=OutboxStatus.PENDING,
            last_error=reason,
            next_attempt_at=until,
        )

    async def record_parts(
        self, row_id: int, message_ids: list[int], in_doubt: int | None = None
    ) -> bool:
        """The parts of a split message sent so far (a retry sends only the others), and the
        part whose answer was lost, if one was (in the payload: the row stays one row)."""

        def record(conn: Connection) -> bool:
            o = OutboxRecord
            text = conn.execute(select(o.payload).where(o.id == row_id)).scalar()
            if text is None:
                return False
            payload = {**loads(text), "sent_parts": message_ids}
            if in_doubt is not None:
                payload["in_doubt"] = in_doubt
            query = update(o).where(o.id == row_id, o.status == OutboxStatus.CLAIMED)
            return rowcount(conn, query.values(payload=dumps(payload))) == 1

        return await self.db.run_urgent_write(record)  # a part sent: as urgent as a mark

    async def mark_undeliverable(self, row_id: int, reason: str) -> bool:
        """The person cannot get direct messages yet: park the row until release_waiting."""
        return await self._settle(
            row_id,
            (OutboxStatus.CLAIMED,),
            status=OutboxStatus.WAITING,
            attempts=OutboxRecord.attempts + 1,
            last_error=reason,
        )

    async def mark_failed(self, row_id: int, reason: str) -> bool:
        """Give up on a row for good (the chat is gone...); later rows go ahead."""
        return await self._settle(
            row_id, OutboxStatus.unfinished(), status=OutboxStatus.FAILED, last_error=reason
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
                .where(o.user_id == user_id, o.status == OutboxStatus.WAITING)
                .values(status=OutboxStatus.PENDING, next_attempt_at=now)
            )
            return await self.db.run_write(rowcount, query)
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
            .where(o.chat_id == chat_id, o.user_id.is_(None), o.status == OutboxStatus.WAITING)
            .values(status=OutboxStatus.PENDING, next_attempt_at=now)
        )
        return await self.db.run_write(rowcount, query)

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

    async def prune(self, now: datetime, keep: timedelta, batch: int = 2000) -> int:
        """Forget settled rows older than `keep`; returns how many rows were touched.

        Rows of ended games and rows of no game are deleted. Rows of games still running
        keep their key and message id (replies, edits and /void find messages by them) and
        lose only their payload (the text, hands included). In batches: short transactions."""
        touched = 0
        for step in (_delete_old, _strip_old):
            while (done := await self.db.run_write(step, now - keep, batch)) > 0:
                touched += done
                if done < batch:
                    break
        return touched

    async def counts(self) -> dict[OutboxStatus, int]:
        """How many rows are in each status (for health checks)."""
        o = OutboxRecord
        query = select(o.status, func.count()).group_by(o.status)
        rows = await self.db.run_read(lambda conn: conn.execute(query).all())
        return {OutboxStatus(status): count for status, count in rows}

    async def _settle(
        self,
        row_id: int,
        only_from: tuple[OutboxStatus, ...],
        *,
        urgent: bool | Callable[[], object] = False,
        **values: Any,
    ) -> bool:
        """Settle a claimed row; `urgent` writes ahead of queued writes (a callable: and is
        called right after COMMIT)."""
        o = OutboxRecord
        query = (
            update(o)
            .where(o.id == row_id, o.status.in_(only_from))
            .values(claimed_by=None, lease_until=None, **values)
        )
        if not urgent:
            return bool(await self.db.run_write(rowcount, query))
        after = (lambda _: urgent()) if callable(urgent) else None
        return bool(await self.db.run_urgent_write(lambda conn: rowcount(conn, query), after))
