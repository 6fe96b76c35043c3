"""One rater at a time: the ratings and the achievements are taken in, and recomputed, under
one PostgreSQL advisory lock (SQLite writes one at a time anyway)."""

from __future__ import annotations

from sqlalchemy import text
from sqlalchemy.engine import Connection

LOCK = 4_200_042  # PostgreSQL's advisory lock: one rater at a time (SQLite: BEGIN IMMEDIATE)


def lock(conn: Connection) -> None:
    """One rater at a time, waiting for its turn (PostgreSQL; SQLite writes one at a time)."""
    if conn.dialect.name == "postgresql":
        conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": LOCK})


def try_lock(conn: Connection) -> bool:
    """One rater at a time; False when another holds the turn (PostgreSQL)."""
    if conn.dialect.name != "postgresql":
        return True
    query = text("SELECT pg_try_advisory_xact_lock(:key)")
    return bool(conn.execute(query, {"key": LOCK}).scalar_one())
