"""Which outbound limiter a worker uses: Redis when configured; else, on PostgreSQL, the
shared counts there (`shared` True) or its own until another worker is seen (`shared` None,
the default: bot.delivery.auto_limiter); else (SQLite, or `shared` False) the in-process one."""

from __future__ import annotations

from collections.abc import Callable

from bot.delivery.auto_limiter import AutoSharedLimiter
from bot.delivery.limiter import Limits, OutboundLimiter, SlidingWindowLimiter
from bot.delivery.pg_limiter import PostgresLimiter
from storage.config import database_url, is_sqlite


def make_limiter(
    limits: Limits,
    clock: Callable[[], float],
    *,
    redis_url: str | None,
    db_url: str | None,
    shared: bool | None = None,
    horizon: float = 60.0,
) -> OutboundLimiter:
    """The limiter for these settings; `horizon`: seconds a send may stay unanswered."""
    if shared is not False and redis_url:
        # Imported only here: the redis client costs about 0.1 s of every start otherwise.
        from bot.delivery.redis_limiter import RedisLimiter

        return RedisLimiter(limits, clock, redis_url, horizon=horizon)
    url = database_url(db_url)
    if shared is False or is_sqlite(url):
        return SlidingWindowLimiter(limits, clock)
    if shared:
        return PostgresLimiter(limits, clock, url, horizon=horizon)
    local = SlidingWindowLimiter(limits, clock)
    return AutoSharedLimiter(local, lambda: PostgresLimiter(limits, clock, url, horizon=horizon))


def describe(limiter: OutboundLimiter) -> str:
    """Where the limiter keeps its counts (for the start-up log line)."""
    return {
        "AutoSharedLimiter": "this process, in PostgreSQL once another worker runs",
        "RedisLimiter": "Redis (shared by all workers)",
        "PostgresLimiter": "PostgreSQL (shared by all workers)",
    }.get(type(limiter).__name__, "this process")
