"""A command's writes on SQLite (storage.command_write's description), straight through the
driver's cursor, in the transaction the writer opened (BEGIN IMMEDIATE: no other writer
until COMMIT).

SQLite has no data-modifying CTEs, and a statement costs it no round trip, but each one
through SQLAlchemy costs the writer thread a tenth to a quarter of a millisecond of Python
(building the query, its cache key, the execution context, the result), several times the
work SQLite itself does. So a command writes with a few fixed statements on the sqlite3
cursor:

- the game row's compare-and-set, which also requires that the update's step has no
  handled row; when it fails nothing was written;
- the events; a pending edit of the same target replaced instead of a new edit queued
  (as storage.messages_owed does); the outbox rows in the planner's order, each chat's
  first due row claimed for this worker at once when nothing is ahead of it in its chat
  (storage.claims), each returning the message it replies to;
- the deadline rows' changes, the members' changes, the snapshot, the update's handled row.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

from sqlalchemy.engine import Connection, Dialect

from storage.claims import Handoff, OutboxRow, claimed_row, handoff_of, nothing_ahead
from storage.command_write import CommandWrite, edit_target
from storage.models import UTCDateTime
from storage.sql import dumps

_CAS = """
UPDATE games SET last_seq = :new_seq, status = :status,
                 updated_at = CASE WHEN :touched THEN :now ELSE updated_at END
WHERE id = :game_id AND last_seq = :seq AND chat_id = :chat_id AND NOT EXISTS (
    SELECT 1 FROM handled_updates h WHERE h.update_id = :update_id AND h.step = :step
)
"""
_EVENT = """
INSERT INTO events (game_id, seq, type, data, recorded_at)
VALUES (:game_id, :seq, :type, :data, :recorded_at)
"""
_COALESCE = """
UPDATE outbox SET payload = :payload, decoration = :decoration
WHERE id = (
    SELECT min(p.id) FROM outbox p
    WHERE p.chat_id = :chat_id AND p.status IN ('pending', 'claimed', 'waiting_for_person')
      AND p.status = 'pending' AND p.payload LIKE '%"op":"edit"%'
      AND json_extract(p.payload, '$.target') = :target
)
"""
_OUTBOX = """
INSERT INTO outbox (key, game_id, chat_id, topic_id, user_id, payload, reply_to_key,
                    decoration, status, attempts, next_attempt_at, created_at, claimed_by,
                    lease_until)
SELECT :key, :game_id, :chat_id, :topic_id, :user_id, :payload, :reply_to_key, :decoration,
       CASE WHEN c.mine THEN 'claimed' ELSE :status END, 0, :next_attempt_at, :created_at,
       CASE WHEN c.mine THEN :worker END, CASE WHEN c.mine THEN :until END
FROM (SELECT :head AND {NOTHING_AHEAD} AS mine) AS c
WHERE true
ON CONFLICT (key) DO NOTHING
RETURNING id, status, (
    SELECT s.sent_message_id FROM outbox s
    WHERE s.key = outbox.reply_to_key AND s.chat_id = outbox.chat_id AND s.status = 'sent'
) AS replied_message_id
""".replace("{NOTHING_AHEAD}", nothing_ahead(":chat_id", ":now", ":decoration"))
_GONE_DEADLINE = """
DELETE FROM deadlines
WHERE game_id = :game_id AND key IN (SELECT value FROM json_each(:keys))
"""
_DEADLINE = """
INSERT INTO deadlines (game_id, key, due_at, command, status, claimed_by, lease_until,
                       updated_at)
VALUES (:game_id, :key, :due_at, :command, 'pending', NULL, NULL, :now)
ON CONFLICT (game_id, key) DO UPDATE SET
    due_at = excluded.due_at, command = excluded.command, status = excluded.status,
    claimed_by = NULL, lease_until = NULL, updated_at = excluded.updated_at
"""
_JOINED = """
INSERT INTO game_members (game_id, user_id) VALUES (:game_id, :user_id)
ON CONFLICT DO NOTHING
"""
_LEFT = """
DELETE FROM game_members
WHERE game_id = :game_id AND user_id IN (SELECT value FROM json_each(:users))
"""
_SNAPSHOT = """
INSERT INTO snapshots (game_id, seq, format, data, written_at)
VALUES (:game_id, :seq, :format, :data, :now)
ON CONFLICT (game_id) DO UPDATE SET
    seq = excluded.seq, format = excluded.format, data = excluded.data,
    written_at = excluded.written_at
"""
_HANDLED = """
INSERT INTO handled_updates (update_id, step, game_id, handled_at)
VALUES (:update_id, :step, :game_id, :now)
"""


def write_on_cursor(conn: Connection, write: CommandWrite, now: datetime) -> Handoff | None:
    """Write the command in the writer's open transaction; None if the game moved on or the
    update's step ran already (then nothing was written)."""
    stamp = _stamper(conn.dialect)
    driver = conn.connection.driver_connection
    assert driver is not None, "a connection checked out of the pool"
    cursor = driver.cursor()
    try:
        return _write(cursor, write, now.astimezone(UTC), stamp)
    finally:
        cursor.close()


def _write(
    cursor: Any, write: CommandWrite, now: datetime, stamp: Callable[[datetime], str]
) -> Handoff | None:
    at = stamp(now)
    step = write.step
    update_id, step_no = (step.update_id, step.step) if step is not None else (None, 0)
    game: dict[str, Any] = {"game_id": write.game_id}
    cas = game | {"chat_id": write.chat_id, "new_seq": write.new_seq, "seq": write.seq}
    cas |= {"status": write.status, "touched": write.touched}
    cursor.execute(_CAS, cas | {"now": at, "update_id": update_id, "step": step_no})
    if cursor.rowcount != 1:
        return None
    if write.events:
        cursor.executemany(_EVENT, [row | {"recorded_at": at} for row in write.events])
    claimed = _write_outbox(cursor, write, now, at, stamp)
    if write.gone_deadlines:
        cursor.execute(_GONE_DEADLINE, game | {"keys": dumps(write.gone_deadlines)})
    if write.moved_deadlines:
        rows = [
            game | {"key": key, "due_at": stamp(due), "command": command, "now": at}
            for key, (due, command) in write.moved_deadlines.items()
        ]
        cursor.executemany(_DEADLINE, rows)
    if write.joined:
        cursor.executemany(_JOINED, [game | {"user_id": user} for user in write.joined])
    if write.left:
        cursor.execute(_LEFT, game | {"users": dumps(write.left)})
    snapshot = write.snapshot
    if snapshot is not None:
        kept = {"seq": snapshot.seq, "format": snapshot.format, "data": snapshot.data}
        cursor.execute(_SNAPSHOT, game | kept | {"now": at})
    if step is not None:
        cursor.execute(_HANDLED, {"update_id": update_id, "step": step_no} | game | {"now": at})
    if write.worker is None:
        return Handoff()
    return handoff_of(write.due, claimed)


def _write_outbox(
    cursor: Any, write: CommandWrite, now: datetime, at: str, stamp: Callable[[datetime], str]
) -> list[OutboxRow]:
    """The command's outbox rows (an edit may replace a pending one); the rows claimed."""
    until = now + write.lease
    extra = {"worker": write.worker, "until": stamp(until), "now": at}
    claimed = []
    for place, (item, row) in enumerate(zip(write.items, write.rows, strict=True)):
        target = edit_target(item)
        if target is not None:
            edit = {"payload": row["payload"], "chat_id": row["chat_id"], "target": target}
            edit["decoration"] = row["decoration"]
            if cursor.execute(_COALESCE, edit).rowcount == 1:
                continue
        stamped = {
            "next_attempt_at": stamp(row["next_attempt_at"]),
            "created_at": at,
            "head": place in write.heads,
        }
        cursor.execute(_OUTBOX, row | extra | stamped)
        returned = cursor.fetchone()
        if returned is not None and returned[1] == "claimed":
            found = row | {"id": returned[0], "replied_message_id": returned[2]}
            found |= {"claimed_by": write.worker, "lease_until": until}
            claimed.append(claimed_row(SimpleNamespace(**found)))
    return claimed


@functools.cache
def _stamper(dialect: Dialect) -> Callable[[datetime], str]:
    """A datetime as SQLAlchemy stores it on SQLite (naive UTC text): the same bytes."""
    process = UTCDateTime().dialect_impl(dialect).bind_processor(dialect)
    assert process is not None
    return process
