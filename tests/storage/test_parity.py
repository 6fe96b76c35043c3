"""Parity of the two databases: simulated games of every edition (forum, classic, Liars,
2023), played through the storage service with the bot's own planner on SQLite and on
PostgreSQL, leave the same stored rows (ids of sequences and timestamps normalised), and
the same log as the simulation itself.

Each command runs for an update of its own (a few updates come twice, as after a crash),
the messages are claimed at insert for a sender that sends some of them at once and lets
others pile up (so edits coalesce and replies find their messages), and snapshots are
written every few events. PostgreSQL is required under CI=true (tests/storage/conftest.py).
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.engine import Connection

from bot.editions.registry import shipped
from engine import commands as cmd
from engine.errors import RuleError
from engine.events import Event
from simulation.liarsplay import RandomLiars
from simulation.randomplay import RandomGame
from simulation.tableplay import RandomTable
from simulation.y2023play import RandomY2023
from storage.models import (
    Base,
    DeadlineRecord,
    EventRecord,
    GameRecord,
    HandledUpdateRecord,
    MemberRecord,
    OutboxRecord,
    SnapshotRecord,
)
from storage.service import Store
from storage.updates import UpdateMark
from tests.storage.conftest import truncate

SHOWN = shipped()  # the shipped editions' presentations
plan_messages = SHOWN.plan_messages

CHAT = -100_777
STEPS = 160  # a game's random moves: a few hundred commands in all, about a second each
EDITIONS: dict[str, Callable[[int], Any]] = {
    "forum": lambda seed: RandomGame(seed=seed, players=4),
    "classic": lambda seed: RandomTable(seed=seed, players=4),
    "liars": lambda seed: RandomLiars(seed=seed, players=4),
    "2023": lambda seed: RandomY2023(seed=seed, players=3),
}
SEEDS = (3, 8)
# Columns that differ by backend without meaning anything: ids drawn from sequences (an
# upsert takes one on PostgreSQL even when it updates), the times a row was written.
UNCOMPARED = {"id", "updated_at", "created_at", "recorded_at", "handled_at", "written_at"}
STATUSES = {"pending", "claimed", "sent", "waiting_for_person", "failed"}
TABLES = (
    GameRecord,
    EventRecord,
    OutboxRecord,
    DeadlineRecord,
    HandledUpdateRecord,
    MemberRecord,
    SnapshotRecord,
)


def _simulated(edition: str, seed: int) -> Any:
    game = EDITIONS[edition](seed)
    game.play(max_steps=STEPS)
    return game


async def _store(url: str) -> Store:
    """A store on a fresh, empty database (PostgreSQL: this run's, truncated)."""
    if not url.startswith("sqlite"):
        await truncate(url, ", ".join(t.name for t in Base.metadata.sorted_tables))
    return await Store.open(url, migrate=False, snapshot_every=7)


async def _replay(
    store: Store, seed: int, commands: list[tuple[cmd.Command, datetime]]
) -> list[Event]:
    """Run a simulated game's commands through the store (in a chat of its own), each for
    an update; returns the events of the commands it accepted."""
    store.claim_for = "sender"
    sent = 0
    game_id: int | None = None
    events: list[Event] = []
    for n, (command, now) in enumerate(commands):
        update = UpdateMark(100_000 * seed + n)
        try:
            if isinstance(command, cmd.OpenLobby):
                chat = CHAT - seed
                outcome = await store.create_game(
                    chat, 0, command, now, plan_messages, update=update
                )
                game_id = outcome.game_id
            else:
                assert game_id is not None
                outcome = await store.execute(game_id, command, now, plan_messages, update=update)
        except RuleError:
            continue
        events.extend(outcome.events)
        if n % 5 == 0 and not isinstance(command, cmd.OpenLobby):  # delivered again
            assert game_id is not None
            again = await store.execute(
                game_id, command, now, plan_messages, update=UpdateMark(100_000 * seed + n)
            )
            assert again.events == []
        # The sender keeps up with two updates in three, and lets the rest pile up.
        rows = list(outcome.handoff.rows) if n % 3 else []
        rows += await store.outbox.claim("sender", now) if n % 3 == 1 else []
        for row in rows:
            sent += 1
            await store.outbox.mark_sent(row.id, 50_000 + sent, now)
    return events


def _rows(conn: Connection) -> dict[str, list[tuple[Any, ...]]]:
    """Every table the service writes, in a stable order, normalised."""
    found = {}
    for model in TABLES:
        table = Base.metadata.tables[model.__tablename__]
        columns = [c for c in table.columns if c.name not in UNCOMPARED]
        keys = [c for c in table.primary_key.columns if c.name not in UNCOMPARED]
        order = list(table.primary_key.columns) if "id" in table.columns else keys
        query = select(*columns).order_by(*order, *columns)
        found[table.name] = [tuple(row) for row in conn.execute(query)]
    return found


async def _played(url: str, edition: str) -> dict[str, Any]:
    """The rows a few simulated games of the edition leave in a fresh database."""
    store = await _store(url)
    try:
        for seed in SEEDS:
            game = _simulated(edition, seed)
            assert await _replay(store, seed, game.commands) == game.events, "not the simulated log"
            await store.ratings_taken_in()  # the game's end taken in (beside its last command)
        rows: dict[str, Any] = await store.db.run_read(_rows)
        return rows
    finally:
        await store.close()


@pytest.mark.parametrize("edition", list(EDITIONS))
async def test_every_edition_writes_the_same_rows_on_both_databases(
    edition: str, sqlite_template: Path, pg_database: str, tmp_path: Path
) -> None:
    path = tmp_path / "parity.db"
    shutil.copy(sqlite_template, path)
    on_sqlite = await _played(f"sqlite:///{path}", edition)
    on_postgres = await _played(pg_database, edition)
    for table in ("events", "outbox", "handled_updates", "game_members"):
        assert on_sqlite[table], f"{edition}: nothing in {table}"
    assert on_sqlite["snapshots"], f"{edition}: no snapshot"
    statuses = {status for row in on_sqlite["outbox"] for status in row if status in STATUSES}
    assert statuses >= {"sent", "pending"}, f"{edition}: the sender sent nothing, or all"
    for table in on_sqlite:
        assert on_sqlite[table] == on_postgres[table], f"{edition}: {table} differs"
