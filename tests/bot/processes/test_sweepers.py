"""Two processes sweep the same PostgreSQL database: every deadline runs exactly once."""

from __future__ import annotations

import asyncio
import json
import sys
from collections import Counter
from collections.abc import Iterator
from datetime import timedelta

import pytest

from engine import events as ev
from simulation.crowd import START, crowd
from storage.service import Store
from tests.support.postgres import create_pg_database, drop_pg_database
from tests.support.processes import REPO_ROOT

GAMES = 200


@pytest.fixture
def pg_url(pg_server: str) -> Iterator[str]:
    url = create_pg_database()
    yield url
    drop_pg_database(url)


async def _sweep(url: str, worker: str, moment: str) -> list[dict[str, object]]:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.support.sweeper",
        url,
        worker,
        moment,
        cwd=REPO_ROOT,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await process.communicate()
    assert process.returncode == 0, err.decode()
    return [json.loads(line) for line in out.decode().splitlines() if line.startswith("{")]


@pytest.mark.slow
async def test_two_sweeping_processes_run_each_deadline_of_200_games_once(pg_url: str) -> None:
    store = await Store.open(pg_url)
    try:
        games = await crowd(store, GAMES)
        due = {(row.game_id, row.key) for row in await store.deadlines.upcoming(limit=10_000)}
        moment = (START + timedelta(days=1, seconds=1)).isoformat()
        first, second = await asyncio.gather(
            _sweep(pg_url, "host:1", moment), _sweep(pg_url, "host:2", moment)
        )
        ran_first = {(r["game"], r["key"]) for r in first}
        ran_second = {(r["game"], r["key"]) for r in second}
        assert not ran_first & ran_second, "a deadline ran in both processes"
        assert len(first) == len(ran_first) and len(second) == len(ran_second)
        assert ran_first and ran_second, "both processes took part"
        assert ran_first | ran_second == due
        for game_id in games:
            events = await store.events(game_id)
            kinds = Counter(type(e).__name__ for e in events)
            assert (
                kinds["DayEnded"] == 1
                and kinds["SuggestionRefuted"] + kinds["SuggestionNotRefuted"] == 1
            )
            assert sum(isinstance(e, ev.DayOpened) and e.day == 2 for e in events) == 1
    finally:
        await store.close()
