"""A PostgreSQL worker without Redis counts Telegram's limits itself while it is alone and in
PostgreSQL once another worker is alive (bot.delivery.auto_limiter)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.delivery.auto_limiter import AutoSharedLimiter
from bot.delivery.limiter import Limits, Reservation, SlidingWindowLimiter
from bot.delivery.limiters import make_limiter
from bot.delivery.pg_limiter import PostgresLimiter
from bot.scheduler import Scheduler
from bot.services import Services
from storage.service import Store

LIMITS = Limits(group_count=20, group_window=60.0, private_count=1, overall_count=30)


def clock() -> float:
    return 1000.0


def test_the_default_on_postgresql_is_the_switching_limiter(tmp_path: Path) -> None:
    pg = "postgresql+asyncpg://x@127.0.0.1/none"
    assert isinstance(make_limiter(LIMITS, clock, redis_url=None, db_url=pg), AutoSharedLimiter)
    shared = make_limiter(LIMITS, clock, redis_url=None, db_url=pg, shared=True)
    assert isinstance(shared, PostgresLimiter)
    sqlite = f"sqlite:///{tmp_path}/bot.db"
    alone = make_limiter(LIMITS, clock, redis_url=None, db_url=sqlite)
    assert isinstance(alone, SlidingWindowLimiter)


class Counting(SlidingWindowLimiter):
    """A stand-in for the shared limiter that counts what it was asked."""

    def __init__(self) -> None:
        super().__init__(LIMITS, clock)
        self.reserved: list[int] = []
        self.paused: list[int] = []

    async def reserve(self, chat_id: int, count: int = 1) -> Reservation | float:
        self.reserved.append(chat_id)
        return await super().reserve(chat_id, count)

    async def pause(self, chat_id: int, seconds: float) -> None:
        self.paused.append(chat_id)
        await super().pause(chat_id, seconds)


async def test_sends_go_to_the_shared_counts_only_after_share() -> None:
    shared = Counting()
    limiter = AutoSharedLimiter(SlidingWindowLimiter(LIMITS, clock), lambda: shared)
    first = await limiter.reserve(5)
    assert isinstance(first, Reservation) and shared.reserved == []
    limiter.share()
    second = await limiter.reserve(6)
    assert isinstance(second, Reservation) and shared.reserved == [6]
    await limiter.release(first)  # back to the limiter that issued it
    await limiter.release(second)
    await limiter.pause(7, 3.0)
    assert shared.paused == [7], "a 429 pauses the chat in the shared counts too"
    assert await limiter.reserve(7) == 3.0


async def test_the_scheduler_shares_when_another_worker_beats(tmp_path: object) -> None:
    store = await Store.open(f"sqlite:///{tmp_path}/bot.db")
    try:
        moment = [datetime(2026, 11, 30, 12, tzinfo=UTC)]
        services = Services(store=store, clock=lambda: moment[0])
        # The process this one replaced beat just before it started: not a peer.
        await store.workers.beat("replaced", moment[0] - timedelta(seconds=2))
        scheduler = Scheduler(services, "me", sweep_every=5.0)
        calls: list[str] = []
        scheduler.on_peer = lambda: calls.append("share")
        scheduler.booted_at = moment[0]
        await scheduler.sweep()
        moment[0] += timedelta(seconds=5)
        await scheduler.sweep()
        assert calls == [], "a worker that beat only before this one started is gone"
        await store.workers.beat("other", moment[0] - timedelta(seconds=1))
        await scheduler.sweep()
        await scheduler.sweep()
        assert calls == ["share"], "told once"
    finally:
        await store.close()
