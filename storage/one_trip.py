"""A command's writes on PostgreSQL in one statement: one round trip instead of six to eight.

Each statement costs the bot a round trip and about half a millisecond of CPU through
SQLAlchemy and asyncpg (see bench/service.py's BENCH_STATEMENTS), so the usual case of a
command — decided on the state this process wrote last — writes everything with data-
modifying CTEs in one statement, all hanging on the game row's compare-and-set:

- `cas`: the game row's last_seq moves on only if it still is the cached seq (and chat);
  every other part reads `FROM cas`, so when the set fails nothing at all is written and
  the caller goes on under the row lock as before;
- `new_events`, `handled` (the update's step: the set also requires that the step has no
  row yet, so a repeat writes nothing; two at once collide on its primary key and the
  statement fails whole), `gone_deadlines` and `moved_deadlines` (storage.deadlines' diff);
- `coalesced`: an edit whose target already has an edit pending replaces that edit's
  payload (as storage.messages_owed does), and is not inserted;
- `inserted`: the outbox rows in the planner's order (ids follow it), each chat's first
  due row claimed for this worker at once when nothing unfinished waits ahead of it in
  its chat (storage.outbox's rule, read in the statement's snapshot, which is what the
  claim after an INSERT saw too); the final SELECT returns the claimed rows with the
  message each replies to.

Being one statement, it is atomic without a transaction: storage.service runs it on a
connection in autocommit (no BEGIN, no COMMIT: one round trip for the whole command) and
falls back to a transaction when the game moved on or the command is unusual.

Anything unusual (a membership change, a snapshot due, two edits in one command, unknown
deadline rows) takes the statement-by-statement path in storage.commands. The usual
update's command runs the statement on the asyncpg connection itself (`write_on_driver`,
through Database.run_driver), past SQLAlchemy; SQLite's counterpart is
storage.one_trip_sqlite.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from functools import cache
from types import SimpleNamespace
from typing import Any, Literal

from sqlalchemy import TextClause, text
from sqlalchemy.engine import Connection

from engine.decision import Decision
from storage.cache import Known
from storage.claims import Handoff, claimed_row, due_items, handoff_of, heads, nothing_ahead
from storage.command_write import CommandWrite, edit_target, fits
from storage.deadlines import deadline_changes, wanted_rows
from storage.log import event_rows
from storage.members import members
from storage.messages_owed import OutboxItem, outbox_rows
from storage.outcome import LEASE
from storage.sql import numbered
from storage.updates import Step

_SQL = """
WITH cas AS (
    UPDATE games SET last_seq = :new_seq, status = :status, updated_at = :now
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
), items AS (
    SELECT * FROM unnest(:keys, :chats, :topics, :users, :payloads, :replies, :dues,
                         :heads, :targets, :places)
        AS i(key, chat_id, topic_id, user_id, payload, reply_to_key, next_attempt_at,
             head, target, place)
), coalesced AS (
    UPDATE outbox SET payload = i.payload
    FROM cas, items i
    WHERE i.target IS NOT NULL AND outbox.status = 'pending' AND outbox.id = (
        SELECT min(p.id) FROM outbox p
        WHERE p.chat_id = i.chat_id AND p.status = 'pending'
          AND p.payload LIKE '%"op":"edit"%' AND CAST(p.payload AS JSONB) ->> 'target' = i.target
    )
    RETURNING i.key AS item_key
), inserted AS (
    INSERT INTO outbox (key, game_id, chat_id, topic_id, user_id, payload, reply_to_key,
                        status, attempts, next_attempt_at, created_at, claimed_by,
                        lease_until)
    SELECT i.key, cas.id, i.chat_id, i.topic_id, i.user_id, i.payload, i.reply_to_key,
           CASE WHEN c.mine THEN 'claimed' ELSE 'pending' END, 0, i.next_attempt_at, :now,
           CASE WHEN c.mine THEN :worker END, CASE WHEN c.mine THEN :until END
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
""".replace("{NOTHING_AHEAD}", nothing_ahead("i.chat_id", ":now"))

_TYPES = {
    "new_seq": "INTEGER",
    "status": "VARCHAR",
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
    "keys": "VARCHAR[]",
    "chats": "BIGINT[]",
    "topics": "BIGINT[]",
    "users": "BIGINT[]",
    "payloads": "TEXT[]",
    "replies": "VARCHAR[]",
    "dues": "TIMESTAMPTZ[]",
    "heads": "BOOLEAN[]",
    "targets": "VARCHAR[]",
    "places": "INTEGER[]",
    "worker": "VARCHAR",
    "until": "TIMESTAMPTZ",
}


@cache
def _statement() -> TextClause:
    """The statement, every parameter cast to its type (asyncpg needs them known)."""
    sql = _SQL
    for name in sorted(_TYPES, key=len, reverse=True):
        sql = sql.replace(f":{name}", f"CAST(${name} AS {_TYPES[name]})")
    return text(sql.replace("$", ":"))


def usual_write(
    known: Known,
    decision: Decision,
    now: datetime,
    plan: Callable[[], list[OutboxItem]],
    step: Step | None,
    worker: str | None,
    snapshot_every: int | None,
) -> CommandWrite | Literal["unusual"]:
    """What a command decided on `known` writes; "unusual" if it needs more than a fast
    write does (a membership change, a snapshot due, unknown deadline rows, two edits)."""
    before, events, after = decision.before, decision.events, decision.state
    new_seq = known.seq + len(events)
    every = snapshot_every
    if (
        known.deadlines is None
        or members(before) != members(after)
        or (every and new_seq // every > known.seq // every)
    ):
        return "unusual"
    items = plan()
    if not fits(items):
        return "unusual"
    return CommandWrite(
        game_id=known.game_id,
        chat_id=known.chat_id,
        seq=known.seq,
        new_seq=new_seq,
        status=after.phase.value,
        events=event_rows(known.game_id, known.seq + 1, events, now),
        had=known.deadlines,
        wanted=wanted_rows(after),
        items=items,
        step=step,
        worker=worker,
        lease=LEASE,
    )


def written_state(known: Known, decision: Decision, write: CommandWrite) -> Known:
    """The game as the write left it."""
    after = decision.state
    return Known(known.game_id, write.new_seq, after, known.chat_id, known.topic_id, write.wanted)


async def write_on_driver(driver: Any, write: CommandWrite, now: datetime) -> Handoff | None:
    """The same statement on the asyncpg connection itself (storage.database.run_driver);
    None if the game moved on (nothing written)."""
    now = now.astimezone(UTC)
    params = _params(write, now)
    sql, names = _positional()
    found = await driver.fetch(sql, *(params[name] for name in names))
    rows = [SimpleNamespace(**dict(record)) for record in found]
    return _handoff(write, now, rows)


@cache
def _positional() -> tuple[str, tuple[str, ...]]:
    """The statement with asyncpg's numbered parameters, and their names in that order."""
    names = tuple(_TYPES)
    return numbered(_SQL, names, _TYPES), names


def write_at_once(conn: Connection, write: CommandWrite, now: datetime) -> Handoff | None:
    """Write the command in one statement; None if the game moved on (nothing written)."""
    now = now.astimezone(UTC)
    params = _params(write, now)
    return _handoff(write, now, conn.execute(_statement(), params).all())


def _handoff(write: CommandWrite, now: datetime, rows: Sequence[Any]) -> Handoff | None:
    """What the statement's rows say: None if nothing was written, else the claimed rows."""
    if not rows[0].written:
        return None
    if write.worker is None:
        return Handoff()
    claimed = [claimed_row(row) for row in rows if row.id is not None]
    return handoff_of(due_items(write.items, now), claimed)


def _params(write: CommandWrite, now: datetime) -> dict[str, Any]:
    gone, changed = deadline_changes(write.wanted, write.had)
    rows = outbox_rows(write.items, now, write.game_id)
    firsts = heads(write.items, now) if write.worker is not None else set()
    step = write.step
    return {
        "new_seq": write.new_seq,
        "status": write.status,
        "now": now,
        "game_id": write.game_id,
        "seq": write.seq,
        "chat_id": write.chat_id,
        "event_seqs": [e["seq"] for e in write.events],
        "event_types": [e["type"] for e in write.events],
        "event_datas": [e["data"] for e in write.events],
        "update_id": step.update_id if step is not None else None,
        "step": step.step if step is not None else 0,
        "gone": gone,
        "deadline_keys": list(changed),
        "deadline_dues": [at.astimezone(UTC) for at, _ in changed.values()],
        "deadline_commands": [command for _, command in changed.values()],
        "keys": [row["key"] for row in rows],
        "chats": [row["chat_id"] for row in rows],
        "topics": [row["topic_id"] for row in rows],
        "users": [row["user_id"] for row in rows],
        "payloads": [row["payload"] for row in rows],
        "replies": [row["reply_to_key"] for row in rows],
        "dues": [row["next_attempt_at"].astimezone(UTC) for row in rows],
        "heads": [place in firsts for place in range(len(rows))],
        "targets": [edit_target(item) for item in write.items],
        "places": list(range(len(rows))),
        "worker": write.worker,
        "until": now + write.lease,
    }
