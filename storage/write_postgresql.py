"""A command's writes on PostgreSQL: one statement (storage.command_write's description).

Each statement costs the bot a round trip and about half a millisecond of CPU through
SQLAlchemy and asyncpg, so a command writes everything with data-modifying CTEs in one
statement, all hanging on the game row's compare-and-set:

- `cas`: the game row's last_seq moves on only if it still is the seq the command was
  decided on (and its chat), and the update's step has no handled row yet; every other part
  reads `FROM cas`, so when the set fails nothing at all is written (two writers of one
  update at once collide on the handled row's primary key and the statement fails whole);
- `new_events`, `handled`, `gone_deadlines` and `moved_deadlines`, `joined` and `left`
  (the members), `snapshot`;
- `coalesced`: an edit whose target already has an edit pending replaces that edit's
  payload (as storage.messages_owed does), and is not inserted;
- `inserted`: the outbox rows in the planner's order (ids follow it), each chat's first due
  row claimed for this worker at once when nothing is ahead of it in its chat
  (storage.claims, read in the statement's snapshot); the final SELECT returns the claimed
  rows with the message each replies to.

Being one statement, it is atomic without a transaction: the optimistic attempt of an
update's command runs it on the asyncpg connection itself in autocommit (`write_on_driver`:
no BEGIN, no COMMIT, one round trip); an attempt in a transaction (after the game row's
lock, or a command of no update) runs the same text with the same parameters through
SQLAlchemy's connection (`write_in_transaction`).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from functools import cache
from types import MappingProxyType, SimpleNamespace
from typing import Any

from sqlalchemy.engine import Connection

from storage.claims import Handoff, claimed_row, handoff_of, nothing_ahead
from storage.command_write import CommandWrite, edit_target
from storage.sql import numbered

_SQL = """
WITH cas AS (
    UPDATE games SET last_seq = :new_seq, status = :status,
                     updated_at = CASE WHEN :touched THEN :now ELSE updated_at END
    WHERE id = :game_id AND last_seq = :seq AND chat_id = :chat_id AND NOT EXISTS (
        SELECT 1 FROM handled_updates h WHERE h.update_id = :update_id AND h.step = :step
    )
    RETURNING id
), new_events AS (
    INSERT INTO events (game_id, seq, type, data, recorded_at)
    SELECT cas.id, e.seq, e.type, e.data, :now
    FROM cas, unnest(:event_seqs, :event_types, :event_datas) AS e(seq, type, data)
), handled AS (
    INSERT INTO handled_updates (update_id, step, game_id, handled_at)
    SELECT :update_id, :step, cas.id, :now FROM cas WHERE :update_id IS NOT NULL
), gone_deadlines AS (
    DELETE FROM deadlines USING cas
    WHERE deadlines.game_id = cas.id AND deadlines.key = ANY(:gone)
), moved_deadlines AS (
    INSERT INTO deadlines (game_id, key, due_at, command, status, claimed_by, lease_until,
                           updated_at)
    SELECT cas.id, d.key, d.due_at, d.command, 'pending', NULL, NULL, :now
    FROM cas, unnest(:deadline_keys, :deadline_dues, :deadline_commands)
        AS d(key, due_at, command)
    ON CONFLICT (game_id, key) DO UPDATE SET
        due_at = excluded.due_at, command = excluded.command, status = excluded.status,
        claimed_by = NULL, lease_until = NULL, updated_at = excluded.updated_at
), joined AS (
    INSERT INTO game_members (game_id, user_id)
    SELECT cas.id, u.user_id FROM cas, unnest(:joined) AS u(user_id)
    ON CONFLICT DO NOTHING
), left_game AS (
    DELETE FROM game_members USING cas
    WHERE game_members.game_id = cas.id AND game_members.user_id = ANY(:left)
), snapshot AS (
    INSERT INTO snapshots (game_id, seq, format, data, written_at)
    SELECT cas.id, :snapshot_seq, :snapshot_format, :snapshot_data, :now
    FROM cas WHERE :snapshot_seq IS NOT NULL
    ON CONFLICT (game_id) DO UPDATE SET
        seq = excluded.seq, format = excluded.format, data = excluded.data,
        written_at = excluded.written_at
), items AS (
    SELECT * FROM unnest(:keys, :chats, :topics, :users, :payloads, :replies, :decorations,
                         :dues, :heads, :targets, :places, :statuses)
        AS i(key, chat_id, topic_id, user_id, payload, reply_to_key, decoration,
             next_attempt_at, head, target, place, status)
), coalesced AS (
    UPDATE outbox SET payload = i.payload, decoration = i.decoration
    FROM cas, items i
    WHERE i.target IS NOT NULL AND outbox.status = 'pending' AND outbox.id = (
        SELECT min(p.id) FROM outbox p
        WHERE p.chat_id = i.chat_id AND p.status = 'pending'
          AND p.payload LIKE '%"op":"edit"%' AND CAST(p.payload AS JSONB) ->> 'target' = i.target
    )
    RETURNING i.key AS item_key
), inserted AS (
    INSERT INTO outbox (key, game_id, chat_id, topic_id, user_id, payload, reply_to_key,
                        decoration, status, attempts, next_attempt_at, created_at,
                        claimed_by, lease_until)
    SELECT i.key, cas.id, i.chat_id, i.topic_id, i.user_id, i.payload, i.reply_to_key,
           i.decoration, CASE WHEN c.mine THEN 'claimed' ELSE i.status END, 0,
           i.next_attempt_at, :now, CASE WHEN c.mine THEN :worker END,
           CASE WHEN c.mine THEN :until END
    FROM cas, items i CROSS JOIN LATERAL (
        SELECT i.head AND {NOTHING_AHEAD} AS mine
    ) AS c
    WHERE i.key NOT IN (SELECT item_key FROM coalesced)
    ORDER BY i.place
    ON CONFLICT (key) DO NOTHING
    RETURNING *
)
SELECT (SELECT count(*) FROM cas) AS written, n.*, (
           SELECT s.sent_message_id FROM outbox s
           WHERE s.key = n.reply_to_key AND s.chat_id = n.chat_id AND s.status = 'sent'
       ) AS replied_message_id
FROM (SELECT 1) AS one LEFT JOIN inserted n ON n.status = 'claimed'
""".replace("{NOTHING_AHEAD}", nothing_ahead("i.chat_id", ":now", "i.decoration"))

# Every parameter, cast to its type (asyncpg needs them known), in their order.
_TYPES = MappingProxyType(
    {
        "new_seq": "INTEGER",
        "status": "VARCHAR",
        "touched": "BOOLEAN",
        "now": "TIMESTAMPTZ",
        "game_id": "INTEGER",
        "seq": "INTEGER",
        "chat_id": "BIGINT",
        "event_seqs": "INTEGER[]",
        "event_types": "VARCHAR[]",
        "event_datas": "TEXT[]",
        "update_id": "BIGINT",
        "step": "INTEGER",
        "gone": "VARCHAR[]",
        "deadline_keys": "VARCHAR[]",
        "deadline_dues": "TIMESTAMPTZ[]",
        "deadline_commands": "TEXT[]",
        "joined": "BIGINT[]",
        "left": "BIGINT[]",
        "snapshot_seq": "INTEGER",
        "snapshot_format": "VARCHAR",
        "snapshot_data": "TEXT",
        "keys": "VARCHAR[]",
        "chats": "BIGINT[]",
        "topics": "BIGINT[]",
        "users": "BIGINT[]",
        "payloads": "TEXT[]",
        "replies": "VARCHAR[]",
        "decorations": "BOOLEAN[]",
        "dues": "TIMESTAMPTZ[]",
        "heads": "BOOLEAN[]",
        "targets": "VARCHAR[]",
        "places": "INTEGER[]",
        "statuses": "VARCHAR[]",
        "worker": "VARCHAR",
        "until": "TIMESTAMPTZ",
    }
)


@cache
def _statement() -> str:
    """The statement with asyncpg's numbered parameters (`$1`...: SQLAlchemy's asyncpg
    dialect passes the same text on unchanged)."""
    return numbered(_SQL, tuple(_TYPES), _TYPES)


async def write_on_driver(driver: Any, write: CommandWrite, now: datetime) -> Handoff | None:
    """Write the command on an asyncpg connection in autocommit (Database.run_driver);
    None if the game moved on or the update's step ran already (nothing written)."""
    now = now.astimezone(UTC)
    found = await driver.fetch(_statement(), *_values(write, now))
    return _handoff(write, now, [dict(record) for record in found])


def write_in_transaction(conn: Connection, write: CommandWrite, now: datetime) -> Handoff | None:
    """The same statement in the caller's transaction; None as for `write_on_driver`."""
    now = now.astimezone(UTC)
    found = conn.exec_driver_sql(_statement(), tuple(_values(write, now)))
    return _handoff(write, now, [dict(row._mapping) for row in found])


def _handoff(write: CommandWrite, now: datetime, rows: Sequence[dict[str, Any]]) -> Handoff | None:
    """What the statement's rows say: None if nothing was written, else the claimed rows."""
    if not rows[0]["written"]:
        return None
    if write.worker is None:
        return Handoff()
    claimed = [claimed_row(SimpleNamespace(**row)) for row in rows if row["id"] is not None]
    return handoff_of(write.due, claimed)


def _values(write: CommandWrite, now: datetime) -> list[Any]:
    """The statement's parameters, in the order of _TYPES."""
    step, rows, snapshot = write.step, write.rows, write.snapshot
    moved = write.moved_deadlines
    values: dict[str, Any] = {
        "new_seq": write.new_seq,
        "status": write.status,
        "touched": write.touched,
        "now": now,
        "game_id": write.game_id,
        "seq": write.seq,
        "chat_id": write.chat_id,
        "event_seqs": [e["seq"] for e in write.events],
        "event_types": [e["type"] for e in write.events],
        "event_datas": [e["data"] for e in write.events],
        "update_id": step.update_id if step is not None else None,
        "step": step.step if step is not None else 0,
        "gone": write.gone_deadlines,
        "deadline_keys": list(moved),
        "deadline_dues": [at.astimezone(UTC) for at, _ in moved.values()],
        "deadline_commands": [command for _, command in moved.values()],
        "joined": write.joined,
        "left": write.left,
        "snapshot_seq": snapshot.seq if snapshot is not None else None,
        "snapshot_format": snapshot.format if snapshot is not None else None,
        "snapshot_data": snapshot.data if snapshot is not None else None,
        "keys": [row["key"] for row in rows],
        "chats": [row["chat_id"] for row in rows],
        "topics": [row["topic_id"] for row in rows],
        "users": [row["user_id"] for row in rows],
        "payloads": [row["payload"] for row in rows],
        "replies": [row["reply_to_key"] for row in rows],
        "decorations": [row["decoration"] for row in rows],
        "dues": [row["next_attempt_at"].astimezone(UTC) for row in rows],
        "heads": [place in write.heads for place in range(len(rows))],
        "targets": [edit_target(item) for item in write.items],
        "places": list(range(len(rows))),
        "statuses": [row["status"] for row in rows],
        "worker": write.worker,
        "until": now + write.lease,
    }
    return [values[name] for name in _TYPES]
