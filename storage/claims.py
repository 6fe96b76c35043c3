"""Claiming outbox rows: the row a claim returns, the handoff of rows claimed by a write, and
the one rule of what may be claimed — a chat's head row.

Delivery order: rows of one chat go out in id order. A row is claimable only when no
earlier row of the same chat is still unfinished and holds it back — claimed, waiting for
its person, or pending and either due or already tried once (a failed row in back-off, or
one deferred at its chat's limit, holds the rows behind it). An untried row scheduled for
later (`not_before`) holds nothing back. So each claim returns at most the head row of
each chat.

Play before decoration: a row that only tells (`decoration`: an index's edit, whose text
shows the game as of the command that planned it) gives way to the later rows of its chat
that are not decoration. While it is pending it holds none of them back, and it waits while
one of them would hold back a row behind it (claimed, waiting, or pending and due or
tried). So at a chat's limit, what someone must act on goes out first. Nothing that depends
on order moves: only an edit is decoration, so no row replies to it or edits it. Its own
target went out before it, as it never passes an earlier row, and it passes no other
decoration row either, so the newest index goes last. Two edits of one message still
coalesce into one, the newest (storage.messages_owed). A
claimed decoration row holds back the rows behind it as any claimed row does, so a chat
still has one row under way at a time: the head row, for this rule.

The rule is SQL text (`claimable`, `nothing_ahead`), written once here and used by every
statement that claims: the sender's claim (`claim`, `claim_in_chats`), a command's write
that claims its new head rows as it inserts them (storage.write_postgresql,
storage.write_sqlite) and the marks that claim their chat's next row
(storage.marks_driver). tests/storage/test_claims.py checks that no other module spells it.
"""

from __future__ import annotations

import asyncio
import functools
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import bindparam, text
from sqlalchemy.engine import Connection

from storage.messages_owed import OutboxItem
from storage.models import UTCDateTime
from storage.sql import loads

# The statuses of ix_outbox_unfinished_per_chat's WHERE, word for word (SQLite's planner
# uses the partial index only for the same text).
UNFINISHED_SQL = "status IN ('pending', 'claimed', 'waiting_for_person')"


def tried(e: str) -> str:
    """Whether row `e` was tried before (deferred at its chat's limit, or failed)."""
    return f"({e}.attempts > 0 OR {e}.last_error IS NOT NULL)"


def _holds_back(e: str, now: str) -> str:
    """Whether an unfinished row `e` holds back the later rows of its chat at `now`."""
    return (
        f"({e}.status IN ('claimed', 'waiting_for_person') OR {e}.status = 'pending' AND "
        f"({e}.next_attempt_at <= {now} OR {tried(e)}))"
    )


def _gives_way(e: str, decoration: str) -> str:
    """SQL: row `e` gives way to a later row of its chat whose `decoration` (SQL) is false:
    `e` is a decoration row still pending."""
    return f"({e}.status = 'pending' AND {e}.decoration AND NOT {decoration})"


def nothing_ahead(
    chat: str, now: str, decoration: str, *, before: str | None = None, besides: str = ""
) -> str:
    """SQL: no unfinished row of `chat` (ahead of row id `before`, if given; not among the
    ids `besides`, an array, if given) holds back a row behind it at `now` whose
    `decoration` (SQL) is given; a pending decoration row holds back only decoration."""
    ahead = f" AND e.id < {before}" if before is not None else ""
    ahead += f" AND e.id <> ALL({besides})" if besides else ""
    return (
        f"NOT EXISTS (SELECT 1 FROM outbox e WHERE e.chat_id = {chat} AND e.{UNFINISHED_SQL}"
        f"{ahead} AND {_holds_back('e', now)} AND NOT {_gives_way('e', decoration)})"
    )


def _nothing_it_gives_way_to(o: str, now: str, besides: str) -> str:
    """SQL: row `o` is not a pending decoration row with a later row of its chat, not
    decoration, that would hold back a row behind it at `now` (then that goes first)."""
    others = f" AND l.id <> ALL({besides})" if besides else ""
    later = (
        f"SELECT 1 FROM outbox l WHERE l.chat_id = {o}.chat_id AND l.{UNFINISHED_SQL}"
        f" AND l.id > {o}.id{others} AND NOT l.decoration AND {_holds_back('l', now)}"
    )
    return f"NOT ({o}.status = 'pending' AND {o}.decoration AND EXISTS ({later}))"


def claimable(o: str, now: str, *, besides: str = "") -> str:
    """SQL: row `o` is its chat's head row and may be claimed at `now` (due and pending, or
    its claim's lease ran out), rows `besides` counted as finished."""
    ready = (
        f"({o}.status = 'pending' AND {o}.next_attempt_at <= {now}"
        f" OR {o}.status = 'claimed' AND {o}.lease_until <= {now})"
    )
    decoration = f"{o}.decoration"
    ahead = nothing_ahead(f"{o}.chat_id", now, decoration, before=f"{o}.id", besides=besides)
    later = _nothing_it_gives_way_to(o, now, besides)
    return f"{o}.{UNFINISHED_SQL} AND {ready} AND {ahead} AND {later}"


# The message a row replies to, when that one was sent: in the same round trip. Only within
# one chat: a group that became a supergroup numbers its messages anew.
REPLIED = """(
    SELECT s.sent_message_id FROM outbox s
    WHERE s.key = outbox.reply_to_key AND s.chat_id = outbox.chat_id AND s.status = 'sent'
) AS replied_message_id"""
COLUMNS = (
    "id, key, game_id, chat_id, topic_id, user_id, payload, reply_to_key, attempts, "
    "claimed_by, lease_until"
)


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


Marked = tuple[bool, list[OutboxRow]]  # was it unfinished until now; the rows claimed next


@dataclass
class Mark:
    """One message Telegram accepted; `next_for` = (worker, chat) to claim the chat's next."""

    row_id: int
    message_id: int | None
    now: datetime
    committed: Callable[[], object] | None = None
    next_for: tuple[str, int] | None = None
    lazy: bool = False
    done: asyncio.Future[Marked] = field(default_factory=lambda: _future())
    asked_next: bool = False  # written with next_for (set as it is written)


def _future() -> asyncio.Future[Marked]:
    return asyncio.get_running_loop().create_future()


@dataclass(frozen=True)
class Handoff:
    """Rows a write claimed for this process's sender at once (no claim of its own needed),
    and the chats whose new rows wait behind an unfinished earlier row."""

    rows: tuple[OutboxRow, ...] = ()
    held: frozenset[int] = frozenset()


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


def due_items(items: Sequence[OutboxItem], now: datetime) -> list[OutboxItem]:
    """The items that may go out now (no `not_before` still ahead, none still to compose)."""
    return [
        item
        for item in items
        if not item.owed and (item.not_before is None or item.not_before <= now)
    ]


def heads(items: Sequence[OutboxItem], now: datetime) -> set[int]:
    """The places of each chat's first due item (its first that is not decoration, if it
    has one: a decoration item gives way to it): the ones a write may claim as it inserts
    them (when `nothing_ahead` of them in their chat)."""
    due = {item.key for item in due_items(items, now)}
    first: dict[int, int] = {}  # chat -> place
    for place, item in enumerate(items):
        held = first.get(item.chat_id)
        if item.key in due and (held is None or (items[held].decoration and not item.decoration)):
            first[item.chat_id] = place
    return set(first.values())


def handoff_of(due: Sequence[OutboxItem], rows: Sequence[OutboxRow]) -> Handoff:
    """The rows claimed for the due items, and the chats where some of those still wait."""
    chats = Counter(item.chat_id for item in due)
    keys = {item.key for item in due}
    first = {row.chat_id for row in rows if row.key in keys}
    held = frozenset(chat for chat, n in chats.items() if n > (1 if chat in first else 0))
    return Handoff(tuple(sorted(rows, key=lambda row: row.id)), held)


@functools.cache
def _claim_statement(postgresql: bool, in_chats: bool) -> Any:
    """The claim as one UPDATE ... RETURNING: parameters now, limit, worker, until, and
    chats (when `in_chats`)."""
    where = claimable("o", ":now") + (" AND o.chat_id IN :chats" if in_chats else "")
    # Several PostgreSQL workers share the queue without waiting on each other.
    lock = " FOR UPDATE OF o SKIP LOCKED" if postgresql else ""
    sql = f"""
WITH chosen AS (
    SELECT o.id FROM outbox o WHERE {where} ORDER BY o.id LIMIT :limit{lock}
)
UPDATE outbox SET claimed_by = :worker, lease_until = :until, status = 'claimed'
WHERE id IN (SELECT id FROM chosen)
RETURNING {COLUMNS}, {REPLIED}
"""
    params = [bindparam("now", type_=UTCDateTime()), bindparam("until", type_=UTCDateTime())]
    if in_chats:
        params.append(bindparam("chats", expanding=True))
    statement = text(sql).bindparams(*params)
    return statement.columns(lease_until=UTCDateTime())


def claim(
    conn: Connection,
    worker: str,
    now: datetime,
    limit: int,
    lease: timedelta,
    chats: set[int] | None = None,
) -> list[OutboxRow]:
    """Claim up to `limit` claimable rows (of `chats` only, if given) for `worker`, in id
    order."""
    statement = _claim_statement(conn.dialect.name == "postgresql", chats is not None)
    params: dict[str, Any] = {"now": now, "limit": limit, "worker": worker}
    params["until"] = now + lease
    if chats is not None:
        params["chats"] = sorted(chats)
    claimed = conn.execute(statement, params).all()
    return [claimed_row(r) for r in sorted(claimed, key=lambda r: r.id)]


def claim_in_chats(
    conn: Connection, wanted: dict[int, tuple[str, datetime]], lease: timedelta
) -> dict[int, list[OutboxRow]]:
    """For each chat in `wanted` (chat -> (worker, now)), claim its head row if it is ready."""
    found: dict[int, list[OutboxRow]] = {}
    by_worker: dict[tuple[str, datetime], set[int]] = {}
    for chat, (worker, now) in wanted.items():
        by_worker.setdefault((worker, now), set()).add(chat)
    for (worker, now), chats in by_worker.items():
        for row in claim(conn, worker, now, len(chats), lease, chats):
            found.setdefault(row.chat_id, []).append(row)
    return found


def claim_new(
    conn: Connection, items: Sequence[OutboxItem], now: datetime, worker: str, lease: timedelta
) -> Handoff:
    """In the transaction that stored `items`: claim the head rows of their chats."""
    due = due_items(items, now)
    if not due:
        return Handoff()
    chats = {item.chat_id for item in due}
    return handoff_of(due, claim(conn, worker, now, len(chats), lease, chats))


def deliverable(conn: Connection, now: datetime) -> int:
    """How many rows a sender should be delivering at `now`: claimed ones, and those it
    could claim (not those waiting for a retry, for their chat's slot, or behind such a row)."""
    sql = f"SELECT count(*) FROM outbox o WHERE o.status = 'claimed' OR {claimable('o', ':now')}"
    statement = text(sql).bindparams(bindparam("now", type_=UTCDateTime()))
    return int(conn.execute(statement, {"now": now}).scalar() or 0)
