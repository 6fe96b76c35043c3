"""Achievements stored (storage.achievements): each earned once per person, in the
transaction that takes the game into the ratings together with the owed messages that tell
them (a failure in it writes neither), and equal to a fold of the games' logs."""

from __future__ import annotations

from datetime import timedelta
from functools import cache
from typing import Any

import pytest
from sqlalchemy import delete, func, select

import storage.achievements
from engine.achievements import told_in_group
from engine.events import Event
from simulation.randomplay import START
from simulation.rated_games import archive, chat_games
from storage.achievement_models import AchievementRecord
from storage.models import OutboxRecord, OutboxStatus
from storage.rating_models import RatedGameRecord
from storage.service import Store
from storage.sql import loads
from tests.support.stored_games import CHAT

GAMES = 40


@cache
def logs() -> tuple[list[Event], ...]:
    return tuple(chat_games(GAMES, detectives_every=4))


async def _archive_all(store: Store, count: int = GAMES) -> list[int]:
    return [
        await archive(store, CHAT, events, START + timedelta(hours=n))
        for n, events in enumerate(logs()[:count])
    ]


async def _owed(store: Store) -> list[tuple[str, int, int | None, dict[str, Any]]]:
    o = OutboxRecord
    query = select(o.key, o.chat_id, o.user_id, o.payload).where(o.status == OutboxStatus.OWED)
    rows = await store.db.run_read(lambda conn: conn.execute(query.order_by(o.id)).all())
    return [(r.key, r.chat_id, r.user_id, loads(r.payload)) for r in rows]


async def _count(store: Store, model: Any) -> int:
    query = select(func.count()).select_from(model)
    return int(await store.db.run_read(lambda conn: conn.execute(query).scalar_one()))


async def test_earned_once_told_once_and_equal_to_the_fold_of_the_logs(store: Store) -> None:
    await _archive_all(store)
    await store.ratings.rate_pending()
    assert await store.achievements.differ() == 0
    earned = [e for g in range(1, GAMES + 1) for e in await store.achievements.of_game(g)]
    assert earned and all(e.user_id > 0 for e in earned)  # people only
    assert len({(e.user_id, e.key) for e in earned}) == len(earned)
    owed = await _owed(store)
    keys = [key for key, _, _, _ in owed]
    assert len(keys) == len(set(keys))
    heads = [(key, chat, user) for key, chat, user, _ in owed]
    by_game = {g: [e for e in earned if e.game_id == g] for g in {e.game_id for e in earned}}
    for game_id, found in by_game.items():
        thread = (f"achievements:{game_id}", CHAT, None)
        assert (thread in heads) == any(told_in_group(e.key) for e in found)
        for user in {e.user_id for e in found}:
            assert (f"achievements:{game_id}:{user}", user, user) in heads
    private = [h for h in heads if h[2] is not None]
    assert len(private) == len({(e.game_id, e.user_id) for e in earned})
    assert len(heads) - len(private) <= len(by_game)
    assert all(payload["compose"] == "achievements" for _, _, _, payload in owed)
    assert await store.ratings.rate_pending() == 0
    assert len(await _owed(store)) == len(owed)  # taking in again tells nothing more


async def test_a_recompute_restores_what_was_lost_and_tells_nobody(store: Store) -> None:
    await _archive_all(store, 16)
    await store.ratings.rate_pending()
    owed = await _owed(store)
    stored = await _count(store, AchievementRecord)
    assert stored
    await store.db.run_write(lambda conn: conn.execute(delete(AchievementRecord)))
    assert await store.achievements.differ() == stored
    assert await store.achievements.recompute() == stored
    assert await _count(store, AchievementRecord) == stored
    assert await store.achievements.differ() == 0
    assert await _owed(store) == owed


async def test_a_failure_in_the_transaction_writes_neither_the_game_nor_its_achievements(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    await _archive_all(store, 12)

    def broken(*args: Any, **kwargs: Any) -> int:
        raise RuntimeError("the process died here")

    monkeypatch.setattr(storage.achievements, "insert_items", broken)
    with pytest.raises(RuntimeError):
        await store.ratings.rate_pending()
    assert await _count(store, AchievementRecord) == 0
    assert await _count(store, RatedGameRecord) == 0  # the batch is not taken in either
    assert await _owed(store) == []
    monkeypatch.undo()
    assert await store.ratings.rate_pending() == 12
    assert await _count(store, AchievementRecord) > 0
    assert await store.achievements.differ() == 0
