"""bot/owed.py: an owed story row composed into the story post's payload and queued once;
a composer that keeps failing retried after each lease, then given up (logged each time)."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

import bot.owed
from bot.owed import compose_owed
from engine import commands as cmd
from storage.messages_owed import OutboxItem, PlanContext
from storage.owed import LEASE, TRIES
from storage.service import Store
from tests.support.stored_games import NOW, new_game, planner


def owing(ctx: PlanContext) -> list[OutboxItem]:
    """The test planner's rows, and the game's story owed after them."""
    story = {"compose": "story", "game": ctx.game_id}
    return [*planner(ctx), OutboxItem(f"g{ctx.game_id}:story", ctx.chat_id, payload=story)]


async def _row(store: Store, key: str) -> tuple[str, str]:
    query = f"SELECT status, payload FROM outbox WHERE key = '{key}'"
    found = await store.db.run_read(lambda conn: conn.exec_driver_sql(query).one())
    return found[0], found[1]


async def _owing_game(tmp_path: Path) -> tuple[Store, int]:
    store = await Store.open(f"sqlite:///{tmp_path}/bot.db")
    game = (await new_game(store, players=3, start=False)).game_id
    await store.execute(game, cmd.StartGame(actor=1), NOW, owing)
    return store, game


async def test_an_owed_story_is_composed_once(tmp_path: Path) -> None:
    store, game = await _owing_game(tmp_path)
    try:
        assert await compose_owed(store, "w", lambda: NOW) == 1
        status, payload = await _row(store, f"g{game}:story")
        assert status == "pending" and '"kind":"story.post"' in payload.replace(" ", "")
        assert await compose_owed(store, "w2", lambda: NOW + LEASE * 2) == 0, "told once"
    finally:
        await store.close()


async def test_a_story_that_keeps_failing_is_given_up_after_its_tries(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def broken(store: Store, game_id: int) -> dict[str, Any] | None:
        raise RuntimeError("the solver fell over")

    monkeypatch.setattr(bot.owed, "story_payload", broken)
    store, game = await _owing_game(tmp_path)
    try:
        clock: list[datetime] = [NOW]
        for _ in range(TRIES):
            assert await compose_owed(store, "w", lambda: clock[0]) == 0
            assert await compose_owed(store, "w", lambda: clock[0]) == 0, "its lease holds"
            clock[0] += LEASE
        status, _ = await _row(store, f"g{game}:story")
        assert status == "failed"
    finally:
        await store.close()
