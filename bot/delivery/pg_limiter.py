"""The outbound limiter shared by every worker through PostgreSQL, when no Redis is set.

The same sliding-window arithmetic as `SlidingWindowLimiter` (`free_at`), on slots kept in
the `send_slots` table (storage.send_slots), each reservation one short transaction under
an advisory lock. A slot in flight is stored with the moment by which its answer must have
come (`horizon` seconds on), so the slots of a worker that died mid-send expire too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from sqlalchemy.engine import URL, Connection
from sqlalchemy.exc import DBAPIError, OperationalError

from bot.delivery.limiter import IN_FLIGHT, LimiterUnavailable, Limits, Reservation, free_at
from storage import send_slots
from storage.database import Database, Disconnected

OVERALL = 0
T = TypeVar("T")
PRUNE_EVERY = 500  # reservations between prunings of all chats' old slots


class PostgresLimiter:
    """Sliding-window logs per chat and overall in PostgreSQL, shared by every worker."""

    def __init__(
        self,
        limits: Limits,
        clock: Callable[[], float],
        url: str | URL,
        *,
        horizon: float = 60.0,
    ) -> None:
        self.limits = limits
        self.clock = clock
        self.horizon = horizon
        self.db = Database(url, pool_size=2, max_overflow=4)
        self._reservations = 0

    async def reserve(self, chat_id: int, count: int = 1) -> Reservation | float:
        now = self.clock()
        count = self.limits.clamp(chat_id, count)
        self._reservations += 1
        prune = self._reservations % PRUNE_EVERY == 0

        def run(conn: Connection) -> list[list[int]] | float:
            send_slots.lock(conn)
            if prune:
                send_slots.prune(conn, now - self.horizon - self._longest())
            chat_count, chat_window = self.limits.of(chat_id)
            until = max(
                send_slots.paused_until(conn, chat_id),
                self._free(conn, chat_id, count, chat_count, chat_window, now),
                self._free(
                    conn,
                    OVERALL,
                    count,
                    self.limits.overall_count,
                    self.limits.overall_window,
                    now,
                ),
            )
            if until > now:
                return until - now
            return send_slots.take(conn, [chat_id, OVERALL], count, now + self.horizon)

        taken = await self._run(run)
        if isinstance(taken, float):
            return max(taken, 1e-3)
        return Reservation(chat_id, tokens=[",".join(map(str, ids)) for ids in taken])

    def _free(
        self, conn: Connection, chat_id: int, count: int, limit: int, window: float, now: float
    ) -> float:
        slots = send_slots.live_slots(conn, chat_id, window, now)
        log = [[s.at if s.answered else IN_FLIGHT] for s in slots]
        return free_at(log, count, limit, window, now)

    def _longest(self) -> float:
        return max(self.limits.group_window, self.limits.private_window, 1.0)

    async def release(self, reservation: Reservation) -> None:
        """Stamp the answered slots with their moments; delete the unused ones."""
        answered: dict[int, float] = {}
        unused: list[int] = []
        for index, token in enumerate(reservation.tokens):
            ids = [int(i) for i in token.split(",")]
            if index < len(reservation.stamps):
                answered.update(dict.fromkeys(ids, reservation.stamps[index]))
            else:
                unused.extend(ids)
        if answered or unused:
            await self._run(lambda conn: send_slots.settle(conn, answered, unused))
        reservation.tokens = reservation.tokens[: reservation.used]

    async def pause(self, chat_id: int, seconds: float) -> None:
        until = self.clock() + max(0.0, seconds)
        await self._run(lambda conn: send_slots.pause(conn, chat_id, until))

    async def close(self) -> None:
        await self.db.dispose()

    async def _run(self, fn: Callable[[Connection], T]) -> T:
        try:
            return await self.db.run_write(fn)
        except (Disconnected, DBAPIError, OperationalError, OSError) as error:
            raise LimiterUnavailable(str(error)) from error
