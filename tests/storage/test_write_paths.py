"""A command is written in one statement on PostgreSQL (storage.write_postgresql) and
straight on the driver's cursor on SQLite (storage.write_sqlite), and the optimistic attempt
(on the state this process cached) writes exactly what the locked attempt (on the state
read under the lock) writes: rows, ids, claims and handoffs."""

from __future__ import annotations

import asyncio
import shutil
from datetime import timedelta
from pathlib import Path
from typing import Any

import asyncpg
import pytest
from sqlalchemy import event, text
from sqlalchemy.engine import Connection, Engine

from engine import events as ev
from engine.state import Answer
from storage.messages_owed import OutboxItem, PlanContext
from storage.service import Outcome, Store
from storage.updates import UpdateMark
from tests.storage.conftest import truncate
from tests.support.postgres import terminate_connections
from tests.support.stored_games import (
    CHAT,
    NOW,
    ROOMY,
    answer_for,
    check_consistency,
    new_game,
    suggestion_for,
)

TABLES = ("games", "events", "outbox", "deadlines", "handled_updates", "game_members")


def edits_planner(ctx: PlanContext) -> list[OutboxItem]:
    """Thread lines, DMs that reply to them, a delayed reminder, and an edit of one board
    message per command (they pile up behind the unsent board and replace each other)."""
    items = []
    for seq, e in enumerate(ctx.events, start=ctx.first_seq):
        key = f"g{ctx.game_id}:e{seq}"
        before = f"g{ctx.game_id}:e{seq - 1}"  # a reply to the line before, if it was sent
        line = OutboxItem(key=key, chat_id=ctx.chat_id, payload={"seq": seq}, reply_to_key=before)
        items.append(line)
        if isinstance(e, ev.SuggestionMade):
            target = ctx.after.players[e.target].user
            prompt = {"op": "send", "seq": seq}
            ask = OutboxItem(key=f"{key}:ask", chat_id=target, user_id=target, payload=prompt)
            items.append(ask)
            later = NOW + timedelta(hours=1)
            items.append(OutboxItem(key=f"{key}:remind", chat_id=ctx.chat_id, not_before=later))
        if isinstance(e, ev.SuggestionRefuted):
            user = ctx.after.players[ctx.after.suggestions[e.suggestion - 1].suggester].user
            dm = OutboxItem(key=f"{key}:dm", chat_id=user, user_id=user, reply_to_key=key)
            items.append(dm)
    board = {"op": "edit", "target": f"g{ctx.game_id}:board", "seq": ctx.first_seq}
    key = f"g{ctx.game_id}:s{ctx.first_seq}:board"
    items.append(OutboxItem(key=key, chat_id=ctx.chat_id, payload=board))
    return items


async def _play(store: Store) -> list[Any]:
    """Set up a game, then suggestions and answers, a repeated update, some messages sent."""
    game = await new_game(store, settings=ROOMY)
    store.claim_for = "w"
    await _send_all(store, game)
    seen: list[Any] = []

    async def run(update: int, command: Any) -> Outcome:
        outcome = await store.execute(
            game.game_id, command, NOW, edits_planner, update=UpdateMark(update)
        )
        seen.append(([e.__class__.__name__ for e in outcome.events], _handoff(outcome)))
        return outcome

    state = game.state
    for n in range(4):
        made = await run(100 + 2 * n, suggestion_for(state, actor=1 + n % 2, target=3, n=n))
        state = made.state
        if n == 1:
            await run(100 + 2 * n, suggestion_for(state, actor=1, target=3, n=n))  # again
        if n < 2:  # a sender keeps up; later its messages pile up (and edits coalesce)
            # Once, the target's prompt fails and waits for its retry: it holds back the
            # prompts that follow in that private chat.
            await _send_all(store, made, fail_prompt=n == 1)
        if state.suggestions[-1].answer is Answer.PENDING:  # else the engine answered
            answered = await run(101 + 2 * n, answer_for(state, len(state.suggestions)))
            state = answered.state
            if n < 2:
                await _send_all(store, answered)
    await check_consistency(store, game.game_id, planned=False)
    return seen


async def _send_all(store: Store, outcome: Outcome, fail_prompt: bool = False) -> None:
    """What a sender would do: send what was handed over and whatever it can claim (with
    `fail_prompt`, a target's prompt fails, to be tried again in an hour)."""
    rows = list(outcome.handoff.rows) or await store.outbox.claim("w", NOW)
    while rows:
        for row in rows:
            if fail_prompt and row.key.endswith(":ask"):
                await store.outbox.mark_retry(row.id, "timed out", NOW + timedelta(hours=1))
            else:
                await store.outbox.mark_sent(row.id, 5000 + row.id, NOW)
        rows = await store.outbox.claim("w", NOW)


def _handoff(outcome: Outcome) -> tuple[Any, ...]:
    rows = [(r.id, r.key, r.reply_to_message_id, r.claimed_by) for r in outcome.handoff.rows]
    return tuple(rows), tuple(sorted(outcome.handoff.held))


def _dump(conn: Connection) -> dict[str, list[Any]]:
    found = {}
    for table in TABLES:
        columns = [c for c in _columns(conn, table) if c != "id" or table == "outbox"]
        order = ", ".join(columns)
        rows = conn.execute(text(f"SELECT {order} FROM {table} ORDER BY {order}")).all()
        found[table] = [tuple(row) for row in rows]
    return found


def _columns(conn: Connection, table: str) -> list[str]:
    if conn.dialect.name == "sqlite":
        names = [row[1] for row in conn.execute(text(f"PRAGMA table_info({table})"))]
        return [name for name in names if name != "updated_at"]
    query = text(
        "SELECT column_name FROM information_schema.columns "
        "WHERE table_name = :t ORDER BY ordinal_position"
    )
    return [name for name in conn.execute(query, {"t": table}).scalars() if name != "updated_at"]


async def _fresh(db_url: str, request: pytest.FixtureRequest, name: str, cache_size: int) -> Store:
    if db_url.startswith("sqlite"):
        path = Path(request.getfixturevalue("tmp_path")) / f"{name}.db"
        shutil.copy(request.getfixturevalue("sqlite_template"), path)
        return await Store.open(f"sqlite:///{path}", migrate=False, cache_size=cache_size)
    await truncate(db_url, ", ".join(TABLES) + ", chat_names, chat_settings, people")
    return await Store.open(db_url, migrate=False, cache_size=cache_size)


async def test_the_optimistic_attempt_writes_what_the_locked_one_writes(
    db_url: str, request: pytest.FixtureRequest
) -> None:
    async def played(name: str, cache_size: int) -> Any:
        store = await _fresh(db_url, request, name, cache_size)
        try:
            seen = await _play(store)
            return seen, await store.db.run_read(_dump), store.optimistic_misses
        finally:
            await store.close()

    optimistic = await played("optimistic", cache_size=1000)
    locked = await played("locked", cache_size=0)  # nothing cached: each attempt locks
    assert optimistic[2] == 1, "every optimistic attempt wrote but the repeated update's"
    assert optimistic[0] == locked[0], "outcomes or handoffs differ"
    for table in TABLES:
        assert optimistic[1][table] == locked[1][table], f"{table} differs"
    outbox = optimistic[1]["outbox"]
    assert any('"op":"edit"' in str(row) for row in outbox)
    assert len([r for r in outbox if ":board" in str(r[1])]) < 9, "edits did not coalesce"
    replied = [rows for rows, _ in (handoff for _, handoff in optimistic[0])]
    assert any(row[2] for rows in replied for row in rows), "no reply found its message"


async def _usual_suggestion(store: Store, game: Outcome) -> tuple[Outcome, list[str]]:
    """A suggestion in `game`, run for an update: its outcome, and the statements that went
    through SQLAlchemy. The target's prompt goes out at once; the thread's rows wait behind
    the set-up's."""
    through_sqlalchemy: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        through_sqlalchemy.append(statement)

    event.listen(Engine, "before_cursor_execute", count)
    try:
        suggestion = suggestion_for(game.state, 1, 2)
        update = UpdateMark(900)
        outcome = await store.execute(game.game_id, suggestion, NOW, edits_planner, update=update)
    finally:
        event.remove(Engine, "before_cursor_execute", count)
    assert [type(e) for e in outcome.events] == [ev.SuggestionMade]
    line = f"g{game.game_id}:e{outcome.first_seq}"
    assert [row.key for row in outcome.handoff.rows] == [f"{line}:ask"]
    assert outcome.handoff.held == {CHAT}
    return outcome, through_sqlalchemy


@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
async def test_a_usual_command_is_one_statement(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    store.claim_for = "w"
    game = await new_game(store, settings=ROOMY)
    on_driver: list[tuple[str, bool]] = []
    fetch = asyncpg.connection.Connection.fetch

    async def spy(driver: Any, sql: str, *args: Any, **kwargs: Any) -> Any:
        on_driver.append((sql, driver.is_in_transaction()))
        return await fetch(driver, sql, *args, **kwargs)

    monkeypatch.setattr(asyncpg.connection.Connection, "fetch", spy)
    _, through_sqlalchemy = await _usual_suggestion(store, game)
    assert through_sqlalchemy == [], "straight to the driver"
    assert [sql.split()[:2] for sql, _ in on_driver] == [["WITH", "cas"]]
    assert on_driver[0][1] is False, "no BEGIN and COMMIT: the statement commits by itself"
    await check_consistency(store, game.game_id, planned=False)


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
async def test_a_usual_command_goes_straight_to_the_driver_on_sqlite(store: Store) -> None:
    store.claim_for = "w"
    game = await new_game(store, settings=ROOMY)
    run: list[str] = []

    def trace(dbapi_connection: Any, *_: Any) -> None:
        dbapi_connection.set_trace_callback(lambda sql: run.append(" ".join(sql.split())))

    event.listen(store.db.engine, "checkout", trace)
    try:
        _, through_sqlalchemy = await _usual_suggestion(store, game)
    finally:
        event.remove(store.db.engine, "checkout", trace)
    assert through_sqlalchemy == ["BEGIN IMMEDIATE"], "the writes skip SQLAlchemy"
    assert run[0] == "BEGIN IMMEDIATE" and run[1].startswith("UPDATE games SET last_seq")
    assert run[-1] == "COMMIT" and run[-2].startswith("INSERT INTO handled_updates")
    await check_consistency(store, game.game_id, planned=False)


@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
async def test_a_connection_lost_under_the_one_statement_falls_back_and_writes_once(
    store: Store, db_url: str
) -> None:
    game = await new_game(store, settings=ROOMY)
    await asyncio.to_thread(terminate_connections, db_url)  # the pooled connections die
    suggestion = suggestion_for(game.state, 1, 2)
    outcome = await store.execute(
        game.game_id, suggestion, NOW, edits_planner, update=UpdateMark(700)
    )
    assert [type(e) for e in outcome.events] == [ev.SuggestionMade]
    assert store.retries >= 1, "the statement failed and the transaction wrote instead"
    again = await store.execute(
        game.game_id, suggestion, NOW, edits_planner, update=UpdateMark(700)
    )  # Telegram sends the update again: nothing more is written
    assert again.events == []
    await check_consistency(store, game.game_id, planned=False)
    state = await store.load(game.game_id)
    assert len(state.suggestions) == 1
