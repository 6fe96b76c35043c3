"""Transactions and statements per update, counted as bench.counted_run counts them (a
SQLAlchemy `begin` event for each transaction, storage.watch for each statement run on
PostgreSQL's driver itself, every statement the driver runs), as ordinary tests; and a
command decided once per attempt."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

import asyncpg
import pytest
from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.pool import Pool

from engine import events as ev
from storage.messages_owed import OutboxItem, PlanContext
from storage.service import Outcome, Store
from storage.updates import UpdateMark
from storage.watch import WATCHERS, watch
from tests.support.stored_games import NOW, ROOMY, new_game, suggestion_for


class Counts:
    """What ran while counting: transactions begun (SQLAlchemy's and the driver's own
    statements, each its own transaction) and statements (by their first two words)."""

    def __init__(self) -> None:
        self.transactions = 0
        self.statements: list[str] = []

    @contextlib.contextmanager
    def unit(self, kind: str) -> Iterator[None]:
        if kind == "driver":
            self.transactions += 1
        yield

    @contextlib.contextmanager
    def job(self, fn: Callable[[Connection], object]) -> Iterator[None]:
        yield

    def began(self, *_: object) -> None:
        self.transactions += 1

    def reset(self) -> None:
        self.transactions = 0
        self.statements = []

    def ran(self, sql: str) -> None:
        if sql.startswith("PRAGMA wal_checkpoint"):
            return  # the checkpoint thread's, beside the commits (storage/checkpoints.py)
        words = sql.replace(";", " ").split()
        if words and words[0] not in ("BEGIN", "COMMIT", "ROLLBACK"):
            self.statements.append(" ".join(words[:2]))


@pytest.fixture
def counts(store: Store, monkeypatch: pytest.MonkeyPatch) -> Iterator[Counts]:
    """Counting from the start of the test to its end (reset it to count one stretch)."""
    found = Counts()
    event.listen(Engine, "begin", found.began)
    watch(found)
    if store.db.sqlite:  # as the driver runs them: those on the cursor too

        def trace(dbapi_connection: Any, *_: Any) -> None:
            dbapi_connection.set_trace_callback(found.ran)

        event.listen(Pool, "checkout", trace)
    else:  # through SQLAlchemy, and on asyncpg itself (storage.database.run_driver)

        def through_sqlalchemy(_conn: Any, _cursor: Any, sql: str, *_: Any) -> None:
            found.ran(sql)

        event.listen(Engine, "before_cursor_execute", through_sqlalchemy)
        for method in ("fetch", "execute"):
            original = getattr(asyncpg.connection.Connection, method)

            async def spied(driver: Any, sql: str, *args: Any, _original: Any = original) -> Any:
                found.ran(sql)
                return await _original(driver, sql, *args)

            monkeypatch.setattr(asyncpg.connection.Connection, method, spied)
    try:
        yield found
    finally:
        event.remove(Engine, "begin", found.began)
        WATCHERS.remove(found)
        if store.db.sqlite:
            event.remove(Pool, "checkout", trace)
        else:
            event.remove(Engine, "before_cursor_execute", through_sqlalchemy)


async def _suggest(store: Store, game: Outcome, update: int) -> Outcome:
    command = suggestion_for(game.state, actor=1, target=2, n=update)
    outcome = await store.execute(
        game.game_id, command, NOW, planner_counted, update=UpdateMark(update)
    )
    assert isinstance(outcome.events[0], ev.SuggestionMade)
    return outcome


PLANNED: list[int] = []


def planner_counted(ctx: PlanContext) -> list[OutboxItem]:
    """A thread line per event and the target's prompt; counts its calls (one per decision
    that wrote events)."""
    PLANNED.append(ctx.game_id)
    items = [OutboxItem(key=f"g{ctx.game_id}:e{ctx.first_seq}", chat_id=ctx.chat_id)]
    for e in ctx.events:
        if isinstance(e, ev.SuggestionMade):
            user = ctx.after.players[e.target].user
            items.append(OutboxItem(key=f"g{ctx.game_id}:ask{ctx.first_seq}", chat_id=user))
    return items


async def test_a_usual_update_is_one_transaction_that_reads_nothing(
    store: Store, counts: Counts
) -> None:
    """Decided on the state this process wrote last: the game row's compare-and-set proves
    it current, and nothing is read first."""
    store.claim_for = "w"
    game = await new_game(store, settings=ROOMY)
    counts.reset()
    outcome = await _suggest(store, game, 1)
    assert counts.transactions == 1
    if store.db.sqlite:  # the writes on the cursor: the set, the event, two rows, the step
        assert counts.statements[0] == "UPDATE games"
        assert counts.statements[1:] == ["INSERT INTO"] * (len(counts.statements) - 1)
        assert len(counts.statements) <= 6
    else:
        assert counts.statements == ["WITH cas"]
    (made,) = outcome.events
    assert isinstance(made, ev.SuggestionMade)
    assert [row.chat_id for row in outcome.handoff.rows] == [
        outcome.state.players[made.target].user
    ]


async def test_an_update_and_the_mark_of_its_message_are_two_transactions(
    store: Store, counts: Counts
) -> None:
    store.claim_for = "w"
    game = await new_game(store, settings=ROOMY)
    counts.reset()
    outcome = await _suggest(store, game, 1)
    (prompt,) = outcome.handoff.rows
    assert await store.outbox.mark_sent(prompt.id, 900, NOW)
    assert counts.transactions == 2
    assert counts.statements[-1] == "UPDATE outbox"
    if not store.db.sqlite:
        assert counts.statements == ["WITH cas", "UPDATE outbox"]


async def test_a_repeated_update_writes_nothing_in_one_more_transaction(
    store: Store, counts: Counts
) -> None:
    game = await new_game(store, settings=ROOMY)
    first = await _suggest(store, game, 7)
    counts.reset()
    command = suggestion_for(game.state, actor=1, target=2, n=7)
    again = await store.execute(game.game_id, command, NOW, planner_counted, update=UpdateMark(7))
    assert again.events == [] and again.state == first.state
    # The transaction that finds the update's row and writes nothing, and the read of the
    # game as it is (PostgreSQL: first the statement on the driver, which wrote nothing).
    assert counts.transactions == (2 if store.db.sqlite else 3)


async def test_a_command_is_decided_once_per_attempt(store: Store, db_url: str) -> None:
    """A writer whose cached state another writer made old decides twice: once on what it
    cached (the optimistic attempt, which the compare-and-set refuses), once on the state
    read under the lock. Never a third time (PostgreSQL's statement on the driver and the
    transaction after it are one attempt's and the other's)."""
    other = await Store.open(db_url, migrate=False)
    try:
        game = await new_game(store, settings=ROOMY)
        await _suggest(store, game, 1)  # this store's cache: written here
        await _suggest(other, game, 2)  # the other store: the game moved on
        PLANNED.clear()
        misses = store.optimistic_misses
        outcome = await _suggest(store, game, 3)
        assert len(PLANNED) == 2, "decided on the cached state, then on the fresh one"
        assert store.optimistic_misses == misses + 1
        PLANNED.clear()
        await _suggest(store, outcome, 4)  # its own state again: one attempt, one decision
        assert len(PLANNED) == 1
        assert store.optimistic_misses == misses + 1
    finally:
        await other.close()
