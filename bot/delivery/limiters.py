"""Which outbound limiter a worker uses: Redis when configured, else PostgreSQL when the
database is PostgreSQL (several workers may share it), else the in-process one."""

from __future__ import annotations

from collections.abc import Callable

from bot.delivery.limiter import Limits, OutboundLimiter, SlidingWindowLimiter
from storage.config import database_url, is_sqlite


def make_limiter(
    limits: Limits,
    clock: Callable[[], float],
    *,
    redis_url: str | None,
    db_url: str | None,
    shared: bool = True,
    horizon: float = 60.0,
) -> OutboundLimiter:
    """The limiter for these settings; `horizon`: seconds a send may stay unanswered."""
    if shared and redis_url:
        from bot.delivery.redis_limiter import RedisLimiter

        return RedisLimiter(limits, clock, redis_url, horizon=horizon)
    url = database_url(db_url)
    if shared and not is_sqlite(url):
        from bot.delivery.pg_limiter import PostgresLimiter

        return PostgresLimiter(limits, clock, url, horizon=horizon)
    return SlidingWindowLimiter(limits, clock)


def describe(limiter: OutboundLimiter) -> str:
    """Where the limiter keeps its counts (for the start-up log line)."""
    return {
        "RedisLimiter": "Redis (shared by all workers)",
        "PostgresLimiter": "PostgreSQL (shared by all workers)",
    }.get(type(limiter).__name__, "this process")
