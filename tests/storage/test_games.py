"""The service: games by chat topic, commands through the engine, one transaction each."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import text

from engine import commands as cmd
from engine import events as ev
from engine.errors import RuleError
from engine.evolve import replay
from engine.settings import Settings
from storage.models import DeadlineStatus
from storage.service import Store
from tests.support.postgres import terminate_connections
from tests.support.stored_games import (
    CHAT,
    NOW,
    ROOMY,
    answer_for,
    check_consistency,
    count_rows,
    later,
    new_game,
    planner,
    suggestion_for,
)


async def test_a_game_is_created_found_and_played(store: Store) -> None:
    outcome = await new_game(store)
    assert [type(e) for e in outcome.events] == [ev.GameStarted, ev.DayOpened]
    assert outcome.first_seq == 6  # lobby opened, four joins
    ref = await store.game_for_chat(CHAT, 0)
    assert ref is not None and ref.id == outcome.game_id and ref.status == "running"
    assert await store.game_for_chat(CHAT, 5) is None
    assert [g.id for g in await store.games_of_person(3)] == [outcome.game_id]
    assert await store.games_of_person(99) == []
    state = await check_consistency(store, outcome.game_id)
    assert state == outcome.state


async def test_one_open_game_per_topic(store: Store) -> None:
    first = await new_game(store, start=False)
    with pytest.raises(RuleError) as refused:
        await new_game(store, start=False)
    assert refused.value.code == "game_exists"
    other_topic = await new_game(store, topic_id=42, start=False)
    assert other_topic.game_id != first.game_id
    admin_end = cmd.EndGame(actor=1, actor_is_admin=True)
    ended = await store.execute(first.game_id, admin_end, NOW, planner)
    assert ended.state.phase.value == "ended"
    assert await store.game_for_chat(CHAT, 0) is None
    assert [g.id for g in await store.games_of_person(1)] == [other_topic.game_id]
    again = await new_game(store, start=False)
    assert (await store.game_for_chat(CHAT, 0)).id == again.game_id  # type: ignore[union-attr]


async def test_a_rule_error_writes_nothing(store: Store) -> None:
    game = await new_game(store)
    before = await count_rows(store)
    with pytest.raises(RuleError) as refused:
        await store.execute(game.game_id, cmd.JoinLobby(actor=9), NOW, planner)
    assert refused.value.code == "not_in_lobby"
    with pytest.raises(RuleError):
        await store.execute(game.game_id, suggestion_for(game.state, 1, 1), NOW, planner)
    assert await count_rows(store) == before
    with pytest.raises(RuleError) as missing:
        await store.execute(12345, cmd.StartGame(actor=1), NOW, planner)
    assert missing.value.code == "no_game"
    with pytest.raises(RuleError):
        await store.load(12345)


async def test_a_stale_deadline_command_writes_nothing(store: Store) -> None:
    game = await new_game(store)
    before = await count_rows(store)
    early = await store.execute(game.game_id, cmd.EndDay(day=1), NOW, planner)
    stale = await store.execute(game.game_id, cmd.EndDay(day=7), later(days=3), planner)
    assert early.events == [] and stale.events == []
    assert early.state == game.state and early.first_seq == game.first_seq + 2
    assert await count_rows(store) == before


async def test_deadline_rows_follow_the_state(store: Store) -> None:
    game = await new_game(store)
    gid = game.game_id
    admin: dict[str, Any] = {"actor": 1, "actor_is_admin": True}
    made = await store.execute(gid, suggestion_for(game.state, 1, 2, 1), NOW, planner)
    keys = {d.key for d in await store.deadlines.upcoming()}
    suggestion = made.state.suggestions[-1]
    if suggestion.answer.value == "pending":
        assert f"answer:{suggestion.id}" in keys
        await store.execute(gid, answer_for(made.state, suggestion.id), NOW, planner)
    await check_consistency(store, gid)
    await store.execute(gid, suggestion_for(made.state, 1, 3, 2), NOW, planner)
    await store.execute(gid, cmd.PauseGame(**admin), later(hours=1), planner)
    assert await store.deadlines.upcoming() == []
    await store.execute(gid, cmd.ResumeGame(**admin), later(hours=3), planner)
    state = await check_consistency(store, gid)
    assert state.day_ends_at == game.state.day_ends_at + timedelta(hours=2)  # type: ignore[operator]
    await store.execute(gid, cmd.ExtendDay(by=timedelta(hours=5), **admin), later(hours=4), planner)
    day = {d.key: d.due_at for d in await store.deadlines.upcoming()}["day:1"]
    assert day == game.state.day_ends_at + timedelta(hours=7)  # type: ignore[operator]
    await check_consistency(store, gid)


async def test_the_scheduler_runs_due_deadlines(store: Store) -> None:
    game = await new_game(store)
    made = await store.execute(game.game_id, suggestion_for(game.state, 2, 3, 4), NOW, planner)
    end = made.state.day_ends_at
    assert end is not None
    assert await store.deadlines.claim_due("w1", NOW) == []
    due = await store.deadlines.claim_due("w1", end)
    assert {d.key for d in due} >= {"day:1", "remind:1"}
    assert await store.deadlines.claim_due("w2", end) == []  # leased to w1
    for row in due:  # as the scheduler runs them
        await store.execute(row.game_id, row.engine_command(), end, planner)
        await store.deadlines.complete(row)
    state = await check_consistency(store, game.game_id)
    assert state.day == 2 and state.day_open
    assert all(d.status == DeadlineStatus.PENDING for d in await store.deadlines.upcoming())
    assert min(d.due_at for d in await store.deadlines.upcoming()) > end


async def test_concurrent_schedulers_never_share_a_deadline(store: Store) -> None:
    games = [await new_game(store, chat_id=-100 - n) for n in range(6)]
    end = max(g.state.day_ends_at for g in games if g.state.day_ends_at is not None)
    upcoming = await store.deadlines.upcoming(limit=1000)
    due = {(d.game_id, d.key) for d in upcoming if d.due_at <= end}
    assert len(due) == 12  # day end and reminder of each game

    async def scheduler(name: str) -> list[tuple[int, str]]:
        claimed = []
        for _ in range(4):
            rows = await store.deadlines.claim_due(name, end, limit=2)
            claimed += [(row.game_id, row.key) for row in rows]
            await asyncio.sleep(0)
        return claimed

    results = await asyncio.gather(*(scheduler(f"s{n}") for n in range(5)))
    claimed = [pair for result in results for pair in result]
    assert sorted(claimed) == sorted(due)  # each exactly once


async def test_a_deadline_the_engine_ignores_is_completed_not_repeated(store: Store) -> None:
    game = await new_game(store)
    end = game.state.day_ends_at
    assert end is not None
    [day] = [d for d in await store.deadlines.claim_due("w", end) if d.key == "day:1"]
    # A skewed clock: the engine finds the day not over yet and decides nothing.
    skewed = end - timedelta(seconds=1)
    assert (await store.execute(game.game_id, day.engine_command(), skewed, planner)).events == []
    assert await store.deadlines.complete(day)
    keys = {d.key for d in await store.deadlines.claim_due("w", end + timedelta(hours=1))}
    assert "day:1" not in keys  # done, so it does not fire again and again
    # A command that moves the deadline makes it pending again.
    extend = cmd.ExtendDay(actor=1, actor_is_admin=True, by=timedelta(hours=2))
    await store.execute(game.game_id, extend, end - timedelta(minutes=1), planner)
    [moved] = [d for d in await store.deadlines.upcoming() if d.key == "day:1"]
    assert moved.status == DeadlineStatus.PENDING and moved.due_at == end + timedelta(hours=2)
    # Run normally, the deadline disappears and completing it changes nothing.
    [day] = [d for d in await store.deadlines.claim_due("w2", moved.due_at) if d.key == "day:1"]
    await store.execute(game.game_id, day.engine_command(), moved.due_at, planner)
    assert await store.deadlines.complete(day) is False
    assert {d.key for d in await store.deadlines.upcoming()} == {"day:2", "remind:2"}
    await check_consistency(store, game.game_id)


async def test_snapshots_are_used_and_never_trusted_blindly(db_url: str) -> None:
    store = await Store.open(db_url, migrate=False, snapshot_every=5)
    try:
        game = await new_game(store, settings=ROOMY)
        state = game.state
        for n in range(6):
            state = (
                await store.execute(
                    game.game_id, suggestion_for(state, 1, 2 + n % 3, n), NOW, planner
                )
            ).state
        store.forget_cached_states()
        assert await store.load(game.game_id) == state
        await store.db.run_write(lambda c: c.execute(text("UPDATE snapshots SET data = '[1, 2'")))
        store.forget_cached_states()
        assert await store.load(game.game_id) == state
        await store.db.run_write(lambda c: c.execute(text("UPDATE snapshots SET format = 'j0'")))
        store.forget_cached_states()
        assert await store.load(game.game_id) == replay(await store.events(game.game_id))
    finally:
        await store.close()


async def test_two_stores_see_each_others_moves(db_url: str) -> None:
    one = await Store.open(db_url, migrate=False)
    two = await Store.open(db_url, migrate=False)
    try:
        game = await new_game(one, settings=ROOMY)
        state = game.state
        for n in range(6):
            writer = (one, two)[n % 2]
            state = (
                await writer.execute(game.game_id, suggestion_for(state, 1, 2, n % 3), NOW)
            ).state
        assert await one.load(game.game_id) == await two.load(game.game_id) == state
    finally:
        await one.close()
        await two.close()


async def test_settings_survive_in_the_log(store: Store) -> None:
    settings = Settings(day_length=timedelta(hours=6), suggestions_per_day=5, max_players=6)
    game = await new_game(store, settings=settings)
    store.forget_cached_states()
    assert (await store.load(game.game_id)).settings == settings


@pytest.mark.parametrize("backend", ["postgres"], indirect=True)  # a server-side matter
async def test_a_connection_lost_before_commit_is_retried(store: Store, db_url: str) -> None:
    game = await new_game(store, settings=ROOMY)
    await asyncio.to_thread(terminate_connections, db_url)
    outcome = await store.execute(game.game_id, suggestion_for(game.state, 1, 2), NOW, planner)
    assert outcome.events and store.retries >= 1
    await check_consistency(store, game.game_id)
