"""The outbound limiter's shared state in PostgreSQL: slots per chat and for the whole bot.

Every reservation runs under one transaction-scoped advisory lock, so the workers take
slots one at a time (a short transaction; Telegram allows some 30 sends a second). The
arithmetic (when slots free) is the caller's; here is only the SQL.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import delete, func, insert, select, text, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.engine import Connection

from storage.models import SendPauseRecord, SendSlotRecord

LOCK_KEY = 0x57484F44  # "WHOD": the advisory lock of the shared limiter


@dataclass(frozen=True)
class Slot:
    """A live slot: answered at `at`, or in flight (its answer due by `at`)."""

    id: int
    at: float
    answered: bool


def lock(conn: Connection) -> None:
    """Take the limiter's lock until the transaction ends (PostgreSQL only)."""
    conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": LOCK_KEY})


def live_slots(conn: Connection, chat_id: int, window: float, now: float) -> list[Slot]:
    """The chat's slots still in their window, after deleting those that left it."""
    s = SendSlotRecord
    conn.execute(delete(s).where(s.chat_id == chat_id, s.at <= now - window))
    rows = conn.execute(select(s.id, s.at, s.answered).where(s.chat_id == chat_id)).all()
    return [Slot(r.id, r.at, r.answered) for r in rows]


def paused_until(conn: Connection, chat_id: int) -> float:
    until = conn.execute(
        select(SendPauseRecord.until).where(SendPauseRecord.chat_id == chat_id)
    ).scalar()
    return float(until or 0.0)


def take(conn: Connection, chat_ids: list[int], count: int, until: float) -> list[list[int]]:
    """Insert `count` in-flight slots in each of `chat_ids`; their ids, per slot."""
    taken: list[list[int]] = [[] for _ in range(count)]
    for chat_id in chat_ids:
        rows = [{"chat_id": chat_id, "at": until, "answered": False}] * count
        ids = conn.execute(insert(SendSlotRecord).returning(SendSlotRecord.id), rows).scalars()
        for index, slot_id in enumerate(sorted(ids)):
            taken[index].append(slot_id)
    return taken


def settle(conn: Connection, answered: dict[int, float], unused: list[int]) -> None:
    """Stamp the answered slots (id -> moment) and delete the unused ones."""
    s = SendSlotRecord
    for slot_id, at in answered.items():
        conn.execute(update(s).where(s.id == slot_id).values(at=at, answered=True))
    if unused:
        conn.execute(delete(s).where(s.id.in_(unused)))


def pause(conn: Connection, chat_id: int, until: float) -> None:
    """Nothing to `chat_id` before `until` (a later pause already set stays)."""
    p = pg_insert(SendPauseRecord).values(chat_id=chat_id, until=until)
    conn.execute(
        p.on_conflict_do_update(
            index_elements=[SendPauseRecord.chat_id],
            set_={"until": func.greatest(SendPauseRecord.until, p.excluded.until)},
        )
    )


def prune(conn: Connection, before: float) -> None:
    """Forget slots and pauses that ended before `before` (any chat)."""
    conn.execute(delete(SendSlotRecord).where(SendSlotRecord.at <= before))
    conn.execute(delete(SendPauseRecord).where(SendPauseRecord.until <= before))
