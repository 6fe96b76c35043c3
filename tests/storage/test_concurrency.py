"""Many writers on one game: 50 tasks at once, and two OS processes at once.

Whatever the interleaving: no event lost or doubled, seqs 1..N without gaps, every
accepted command's events in the log at the seq it was told, refused commands left
nothing, and the outbox and deadline rows match the log.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from sqlalchemy import select

from engine import commands as cmd
from engine import events as ev
from engine.errors import RuleError
from engine.settings import Settings
from storage.cache import StateCache
from storage.models import GameRecord
from storage.service import Outcome, Store
from tests.support.stored_games import NOW, check_consistency, new_game, planner, suggestion_for

ROOT = Path(__file__).resolve().parents[2]


async def _attempt(store: Store, game_id: int, command: cmd.Command) -> Outcome | str:
    try:
        return await store.execute(game_id, command, NOW, planner)
    except RuleError as error:
        return error.code


async def test_fifty_tasks_join_a_lobby_of_ten(store: Store) -> None:
    lobby = await new_game(store, players=1, start=False, settings=Settings(max_players=10))
    gid = lobby.game_id
    joins = [cmd.JoinLobby(actor=100 + n) for n in range(50)]
    results = await asyncio.gather(*(_attempt(store, gid, c) for c in joins))
    accepted = [(c.actor, r) for c, r in zip(joins, results, strict=True) if isinstance(r, Outcome)]
    refused = Counter(r for r in results if isinstance(r, str))
    assert len(accepted) == 9 and refused == {"lobby_full": 41}
    log = await store.events(gid)
    for user, outcome in accepted:
        assert log[outcome.first_seq - 1] == ev.PlayerJoined(at=NOW, user=user)
    joined = [e.user for e in log if isinstance(e, ev.PlayerJoined)]
    assert sorted(joined) == sorted([1] + [user for user, _ in accepted])
    state = await check_consistency(store, gid)
    assert len(state.lobby) == 10


async def test_fifty_tasks_make_suggestions_at_once(store: Store) -> None:
    settings = Settings(suggestions_per_day=5, max_per_target_per_day=5)
    game = await new_game(store, settings=settings)
    gid, state = game.game_id, game.state
    commands = []
    for n in range(50):
        actor = 1 + n % 4
        target = 1 + (actor + n // 4 % 3) % 4
        commands.append(suggestion_for(state, actor, target, n))
    results = await asyncio.gather(*(_attempt(store, gid, c) for c in commands))
    accepted = [r for r in results if isinstance(r, Outcome)]
    assert len(accepted) == 20  # five each for four players
    assert Counter(r for r in results if isinstance(r, str)) == {"no_suggestions_left": 30}
    log = await store.events(gid)
    for outcome in accepted:
        assert (
            log[outcome.first_seq - 1 : outcome.first_seq - 1 + len(outcome.events)]
            == outcome.events
        )
    final = await check_consistency(store, gid)
    numbers = Counter((s.suggester, s.number) for s in final.suggestions)
    assert len(final.suggestions) == 20 and set(numbers.values()) == {1}


def _spawn(*args: str) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.Popen(
        [sys.executable, "-m", "tests.support.storage_worker", *args],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        text=True,
    )


async def test_two_processes_join_one_lobby(store: Store, db_url: str) -> None:
    lobby = await new_game(store, players=1, start=False, settings=Settings(max_players=80))
    gid = lobby.game_id
    shared = [3000 + n for n in range(30)]
    mine = {
        "a": [1000 + n for n in range(40)] + shared,
        "b": [2000 + n for n in range(40)] + shared,
    }
    start_at = str(time.time() + 2.0)
    workers = [
        _spawn("joins", db_url, str(gid), start_at, *map(str, users)) for users in mine.values()
    ]
    reports = []
    for worker in workers:
        out, _ = worker.communicate(timeout=90)
        assert worker.returncode == 0
        reports.append(json.loads(out.strip().splitlines()[-1]))
    accepted = [tuple(pair) for report in reports for pair in report["accepted"]]
    refused: Counter[str] = sum((Counter(r["refused"]) for r in reports), Counter())
    assert len(accepted) == 79 and sum(refused.values()) == 140 - 79
    assert set(refused) <= {"lobby_full", "already_joined"}
    assert all(report["accepted"] for report in reports)  # both processes got turns
    log = await store.events(gid)
    for user, seq in accepted:
        assert log[seq - 1] == ev.PlayerJoined(at=NOW, user=user)
    users = [e.user for e in log if isinstance(e, ev.PlayerJoined)]
    assert len(users) == len(set(users)) == 80
    await check_consistency(store, gid)


@pytest.mark.parametrize("optimistic", [True, False], ids=["cached", "uncached"])
async def test_colliding_writers_retry_on_fresh_state(
    store: Store, monkeypatch: pytest.MonkeyPatch, optimistic: bool
) -> None:
    """Without the turn-taking lock, writers collide; the losers retry and nothing is lost.

    Cached: each decides on the state this process wrote last and finds out at the game
    row's compare-and-set. Uncached: each reads the state first and loses at the write.
    """
    unlocked = lambda game_id: select(GameRecord).where(GameRecord.id == game_id)  # noqa: E731
    monkeypatch.setattr(store.commands, "_lock_game", unlocked)
    writers = ThreadPoolExecutor(8)
    if store.db.sqlite:  # several writer threads, deferred BEGIN: stale writers fail
        monkeypatch.setattr(store.db, "_writer", store.db.engine)
        monkeypatch.setattr(store.db, "_writes", writers)
    game = await new_game(store, settings=Settings(suggestions_per_day=5, max_per_target_per_day=5))
    if not optimistic:
        monkeypatch.setattr(store.commands, "cache", StateCache(size=0))
    commands = [suggestion_for(game.state, 1 + n % 4, 1 + (n + 1) % 4, n) for n in range(30)]
    try:
        results = await asyncio.gather(*(_attempt(store, game.game_id, c) for c in commands))
    finally:
        writers.shutdown()
    assert sum(isinstance(r, Outcome) for r in results) == 20
    assert (store.optimistic_misses if optimistic else store.retries) > 0
    final = await check_consistency(store, game.game_id)
    assert len(final.suggestions) == 20
