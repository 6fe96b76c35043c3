"""Running games stored before the bot starts, for `bench.service --running-games`."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime

import asyncpg
from sqlalchemy.engine import make_url

from bench.postgres import plain_dsn
from simulation.crowd import crowd
from storage.service import Store


async def prefill(url: str, games: int, players: int = 4) -> None:
    """`games` started games (chats no one is in), each with one unanswered suggestion due
    within the day as usual; their messages marked sent, so the bot only schedules them."""
    if games == 0:
        return
    store = await Store.open(url)
    try:
        await crowd(store, games, players, now=datetime.now(UTC), first_chat=-2_000_000)
    finally:
        await store.close()
    await mark_sent(url)


async def mark_sent(url: str) -> None:
    """Every owed message marked sent, so the bot starts with nothing to deliver; then the
    statistics and (PostgreSQL) the dead rows of that one bulk update cleaned up, as
    autovacuum would have long before in a database that grew to this size over weeks."""
    sql = "UPDATE outbox SET status = 'sent'"
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        with sqlite3.connect(str(parsed.database)) as conn:
            conn.execute(sql)
            conn.execute("ANALYZE")
    else:
        conn = await asyncpg.connect(plain_dsn(url))
        try:
            await conn.execute(sql)
            await conn.execute("VACUUM ANALYZE")
        finally:
            await conn.close()
