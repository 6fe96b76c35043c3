"""Crash safety: SIGKILL a writer in the middle of a stream of commands.

The writer's planner runs inside the transaction, after the events are written and before
the outbox and deadline rows; it announces the seq it is planning and then dawdles, so a
kill usually lands inside a transaction. Afterwards the log, the outbox, the deadlines,
the members and the game row must agree, and the game must go on.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from sqlalchemy import select

from storage.models import GameRecord
from storage.service import Store
from tests.support.stored_games import (
    NOW,
    ROOMY,
    check_consistency,
    new_game,
    planner,
    suggestion_for,
)

ROOT = Path(__file__).resolve().parents[2]


async def _last_seq(store: Store, game_id: int) -> int:
    query = select(GameRecord.last_seq).where(GameRecord.id == game_id)
    return int(await store.db.run_read(lambda conn: conn.execute(query).scalar_one()))


def _kill_during_a_stream(url: str, game_id: int, after_lines: int) -> int:
    """Run the stream writer, SIGKILL it mid-flight; the highest seq it began to plan."""
    worker = subprocess.Popen(
        [sys.executable, "-m", "tests.support.storage_worker", "stream", url, str(game_id)],
        cwd=ROOT,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
        stdout=subprocess.PIPE,
        text=True,
    )
    assert worker.stdout is not None
    planned, lines, deadline = 0, 0, time.monotonic() + 60
    while lines < after_lines and time.monotonic() < deadline:
        line = worker.stdout.readline()
        if not line:
            break
        planned = max(planned, json.loads(line).get("planning", 0))
        lines += 1
    time.sleep(0.005 * (after_lines % 4))  # vary where in the cycle the kill lands
    worker.send_signal(signal.SIGKILL)
    rest, _ = worker.communicate(timeout=30)
    for line in rest.splitlines():
        planned = max(planned, json.loads(line).get("planning", 0))
    assert worker.returncode == -signal.SIGKILL
    assert lines >= after_lines, "the writer did not get going"
    return planned


async def test_a_killed_writer_leaves_nothing_half_written(store: Store, db_url: str) -> None:
    game = await new_game(store, settings=ROOMY)
    gid = game.game_id
    interrupted = 0
    for round_ in range(4):
        planned = _kill_during_a_stream(db_url, gid, after_lines=12 + round_ * 3)
        last = await _last_seq(store, gid)
        interrupted += planned > last  # its events were written, but never committed
        state = await check_consistency(store, gid)
        # The game goes on after the crash, from whatever state was committed.
        await store.execute(gid, suggestion_for(state, 1, 2, round_), NOW, planner)
        await check_consistency(store, gid)
        if interrupted and round_ >= 1:
            break
    assert interrupted, "no kill landed inside a transaction"
