"""The outbox: messages owed to chats and people, written with the events that owe them.

Delivery order and what may be claimed: storage.claims (the rule, the row types, the
handoff). Ids of one game's rows are allocated under that game's lock, so a game's
messages keep the order of its events.

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

from collections.abc import Callable, Iterable
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import and_, delete, func, insert, or_, select, update
from sqlalchemy.engine import Connection

from engine.state import Phase
from storage.claims import Handoff, OutboxRow, claim, claim_new
from storage.database import Database
from storage.marks import Mark, Marks
from storage.messages_owed import OutboxItem, insert_items
from storage.models import GameRecord, OutboxRecord, OutboxStatus
from storage.sql import dumps, loads, rowcount

__all__ = ["DEFERRED", "Handoff", "Outbox", "OutboxRow"]

DEFERRED = "deferred: chat at its limit"
# The statuses of ix_outbox_unfinished_per_chat's WHERE, in its order.
STRIPPED = "{}"  # the payload of a pruned row that must stay findable


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
        return await self.db.run_write(claim, worker, now, limit, lease)

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

        # A part sent: as urgent as a mark.
        return await self.db.run_transaction(record, urgent=True, autocommit=True)

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

    async def sent_message_ids(self, keys: set[str], chat_id: int) -> dict[str, int]:
        """The Telegram message ids the rows with `keys` sent to `chat_id`, those sent."""
        found = await self.db.run_read(_sent_ids, keys)
        return {key: message for key, (chat, message) in found.items() if chat == chat_id}

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

    async def clocks_on_the_way(self, game_id: int) -> set[tuple[str, int]]:
        """The clocks (a payload's `clock`: name and ref) of the game's messages not yet
        delivered (a delivered one's clock is reported before its mark, bot.delivery.clocks):
        the deadlines of those clocks wait for them (bot.scheduler)."""
        o = OutboxRecord
        query = select(o.payload).where(
            o.status.in_((OutboxStatus.PENDING, OutboxStatus.CLAIMED)),
            o.game_id == game_id,
            o.payload.contains('"clock":'),
        )

        def read(conn: Connection) -> set[tuple[str, int]]:
            clocks = (loads(text).get("clock") for (text,) in conn.execute(query))
            return {(str(c[0]), int(c[1])) for c in clocks if c}

        return await self.db.run_read(read)

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
        done = await self.db.run_transaction(
            lambda conn: rowcount(conn, query), after_commit=after, urgent=True, autocommit=True
        )
        return bool(done)
