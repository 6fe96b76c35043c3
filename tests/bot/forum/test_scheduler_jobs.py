"""The scheduler's job table follows each command's own game: the jobs are exactly the
upcoming deadlines (an answered suggestion's job goes at once), and a command adds, moves or
removes only its game's jobs, without a scan of all jobs or a read of all deadlines."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from telegram.ext import ApplicationBuilder, Job, JobQueue

from bot.scheduler import Scheduler
from bot.services import Services
from engine import commands as cmd
from engine.state import Answer, Game
from storage.service import Store
from tests.support.harness import TOKEN, database_url
from tests.support.stored_games import ROOMY, answer_for, suggestion_for

GAMES = 4
ROUNDS = 8


@dataclass
class Planning:
    services: Services
    scheduler: Scheduler
    queue: JobQueue[Any]


@pytest.fixture
async def planning(tmp_path: Path) -> AsyncIterator[Planning]:
    """A scheduler on a real JobQueue (no periodic sweep) and a store, on real time."""
    store = await Store.open(database_url(tmp_path))
    services = Services(store)
    application = ApplicationBuilder().token(TOKEN).updater(None).build()
    scheduler = Scheduler(services, "test:1:abc", sweep_every=3600)
    scheduler.install(application)  # type: ignore[arg-type]
    queue = application.job_queue
    assert queue is not None
    for job in queue.get_jobs_by_name("sweep"):
        job.schedule_removal()  # the commands alone must keep the table right
    await queue.start()
    try:
        yield Planning(services, scheduler, queue)
    finally:
        await queue.stop()
        await store.close()


async def _games(services: Services) -> dict[int, Game]:
    games = {}
    for n in range(GAMES):
        opening = cmd.OpenLobby(actor=1, seed=n, settings=ROOMY)
        outcome = await services.create(-100 - n, 0, opening)
        for user in (2, 3, 4):
            outcome = await services.run(outcome.game_id, cmd.JoinLobby(actor=user))
        outcome = await services.run(outcome.game_id, cmd.StartGame(actor=1))
        games[outcome.game_id] = outcome.state
    return games


def _next_command(state: Game, n: int) -> cmd.Command:
    """Answer the pending suggestion, else make one (to a player who holds a named card)."""
    pending = [s for s in state.suggestions if s.answer is Answer.PENDING]
    if pending:
        return answer_for(state, pending[0].id)
    actor = 1 + n % 4
    for shift in range(1, 4):
        target = 1 + (actor - 1 + shift) % 4
        for variant in range(40):
            suggestion = suggestion_for(state, actor, target, n + variant)
            cards = {suggestion.suspect, suggestion.weapon, suggestion.place}
            if cards & set(state.players[target - 1].hand):
                return suggestion
    return suggestion_for(state, actor, 1 + actor % 4, n)


async def _upcoming(planning: Planning) -> dict[tuple[int, str], datetime]:
    now = planning.services.now()
    rows = await planning.services.store.deadlines.upcoming(limit=10_000)
    return {(r.game_id, r.key): r.due_at for r in rows if r.due_at > now}


def _queued(queue: JobQueue[Any]) -> set[str]:
    """The names of the deadline jobs APScheduler holds (the test may scan them all)."""
    return {job.name or "" for job in queue.jobs() if (job.name or "").startswith("deadline:")}


def _names(planned: dict[tuple[int, str], datetime]) -> set[str]:
    return {f"deadline:{g}:{key}:{due.isoformat()}" for (g, key), due in planned.items()}


async def test_after_many_commands_the_jobs_are_exactly_the_upcoming_deadlines(
    planning: Planning,
) -> None:
    services, scheduler, queue = planning.services, planning.scheduler, planning.queue
    games = await _games(services)
    answered = 0
    for n in range(ROUNDS):
        for game_id, state in games.items():
            command = _next_command(state, n)
            outcome = await services.run(game_id, command)
            games[game_id] = outcome.state
            planned = scheduler.planned()
            if isinstance(command, cmd.MakeSuggestion):
                made = outcome.state.suggestions[-1]
                if made.answer is Answer.PENDING:
                    assert (game_id, f"answer:{made.id}") in planned
            else:
                answered += 1
                key = f"answer:{outcome.state.suggestions[-1].id}"
                assert (game_id, key) not in planned, "an answered suggestion keeps its job"
                assert not any(
                    name.startswith(f"deadline:{game_id}:{key}:") for name in _queued(queue)
                )
    assert answered >= GAMES * ROUNDS // 3, "too few answers to prove anything"
    upcoming = await _upcoming(planning)
    assert len(upcoming) >= 2 * GAMES
    assert scheduler.planned() == upcoming
    assert _queued(queue) == _names(upcoming)


async def test_a_command_touches_only_its_own_games_jobs_and_scans_nothing(
    planning: Planning, monkeypatch: pytest.MonkeyPatch
) -> None:
    services, scheduler, queue = planning.services, planning.scheduler, planning.queue
    games = await _games(services)
    touched: list[int] = []
    scans: list[str] = []
    run_once = JobQueue.run_once
    schedule_removal = Job.schedule_removal

    def counted_run_once(self: JobQueue[Any], *args: Any, **kwargs: Any) -> Job[Any]:
        touched.append(kwargs["data"][0])
        return run_once(self, *args, **kwargs)

    def counted_removal(job: Job[Any]) -> None:
        touched.append(job.data[0])  # type: ignore[index]
        schedule_removal(job)

    def scan(name: str) -> Any:
        def refused(*args: Any, **kwargs: Any) -> Any:
            scans.append(name)
            raise AssertionError(f"{name} called while re-planning a command")

        return refused

    monkeypatch.setattr(JobQueue, "run_once", counted_run_once)
    monkeypatch.setattr(Job, "schedule_removal", counted_removal)
    monkeypatch.setattr(JobQueue, "jobs", scan("JobQueue.jobs"))
    monkeypatch.setattr(JobQueue, "get_jobs_by_name", scan("JobQueue.get_jobs_by_name"))
    monkeypatch.setattr(queue.scheduler, "get_jobs", scan("APScheduler.get_jobs"))
    monkeypatch.setattr(services.store.deadlines, "upcoming", scan("Deadlines.upcoming"))
    moved = 0
    for n in range(ROUNDS):
        for game_id, state in games.items():
            before = scheduler.planned()
            touched.clear()
            outcome = await services.run(game_id, _next_command(state, n))
            games[game_id] = outcome.state
            assert set(touched) <= {game_id}, "a command touched another game's jobs"
            after = scheduler.planned()
            others = {k: v for k, v in before.items() if k[0] != game_id}
            assert {k: v for k, v in after.items() if k[0] != game_id} == others
            # Each added, moved or removed deadline costs at most one add and one removal.
            mine = {k for k in before.keys() | after.keys() if k[0] == game_id}
            assert len(touched) <= 2 * len(mine)
            moved += bool(touched)
    assert scans == []
    assert moved >= GAMES * ROUNDS // 3, "too few commands moved a deadline to prove anything"


async def test_a_deadline_moved_past_the_horizon_edge_waits_for_the_periodic_plan(
    planning: Planning,
) -> None:
    """Jobs stay about HORIZON many: a command's deadline past the last periodic plan's
    latest one gets no job; the next plan (which reads the earliest rows) adds what is due."""
    services, scheduler = planning.services, planning.scheduler
    games = await _games(services)
    first = next(iter(games))
    upcoming = await _upcoming(planning)
    scheduler.edge = min(upcoming.values()) - timedelta(seconds=1)
    outcome = await services.run(first, _next_command(games[first], 0))
    made = outcome.state.suggestions[-1]
    assert made.answer is Answer.PENDING
    key = (first, f"answer:{made.id}")
    assert key in await _upcoming(planning)
    assert key not in scheduler.planned(), "a job past the edge"
    await scheduler.plan_jobs(planning.queue)
    assert scheduler.edge is None  # fewer rows than HORIZON: no edge
    assert key in scheduler.planned()
    assert scheduler.planned() == await _upcoming(planning)
