"""What the stage watches to know whether the bot is busy or only waiting: the waits the
outbound limiter answered (a delivery, or a handler's own call, asleep until its slot
frees), and the outbox rows still owed per chat and when the next one falls due."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from sqlalchemy import bindparam, func, or_, select, text
from sqlalchemy.engine import Connection

from bot.delivery.limiter import OutboundLimiter, Reservation
from storage.claims import claimable
from storage.models import OutboxRecord, OutboxStatus, UTCDateTime


class Watched:
    """An outbound limiter passing everything to `inner` and noting, for each wait it
    answered, the chat and the moment the wait ends."""

    def __init__(self, inner: OutboundLimiter) -> None:
        self.inner = inner
        self.waits: list[tuple[float, int]] = []  # (when the wait ends, chat)

    @property
    def clock(self) -> Callable[[], float]:
        return self.inner.clock

    @clock.setter
    def clock(self, clock: Callable[[], float]) -> None:
        self.inner.clock = clock

    async def reserve(self, chat_id: int, count: int = 1) -> Reservation | float:
        found = await self.inner.reserve(chat_id, count)
        if not isinstance(found, Reservation):
            self.waits.append((self.clock() + found, chat_id))
        return found

    async def release(self, reservation: Reservation) -> None:
        await self.inner.release(reservation)

    async def pause(self, chat_id: int, seconds: float) -> None:
        await self.inner.pause(chat_id, seconds)

    async def close(self) -> None:
        await self.inner.close()

    def asleep(self, now: float) -> list[tuple[float, int]]:
        """The waits not over at `now` (those over are forgotten)."""
        self.waits = [(end, chat) for end, chat in self.waits if end > now]
        return self.waits

    def next_end(self, now: float) -> float | None:
        """When the first wait not over at `now` ends (None: none)."""
        return min((end for end, _ in self.asleep(now)), default=None)


def owed_by_chat(conn: Connection, now: datetime) -> dict[int, int]:
    """Per chat, the outbox rows a sender should be delivering at `now` (claimed ones, and
    those it could claim): storage.claims.deliverable, chat by chat."""
    sql = (
        "SELECT o.chat_id, count(*) FROM outbox o "
        f"WHERE o.status = 'claimed' OR {claimable('o', ':now')} GROUP BY o.chat_id"
    )
    statement = text(sql).bindparams(bindparam("now", type_=UTCDateTime()))
    return {int(chat): int(n) for chat, n in conn.execute(statement, {"now": now}).all()}


def next_owed(conn: Connection, now: datetime, scheduled: bool = True) -> datetime | None:
    """When the first pending row due after `now` falls due (None: there is none): one tried
    before (deferred at its chat's limit, or failed), or, with `scheduled`, any (a message
    scheduled for later too)."""
    o = OutboxRecord
    statement = select(func.min(o.next_attempt_at)).where(
        o.status == OutboxStatus.PENDING, o.next_attempt_at > now
    )
    if not scheduled:
        statement = statement.where(or_(o.attempts > 0, o.last_error.is_not(None)))
    found = conn.execute(statement).scalar()
    return found if isinstance(found, datetime) else None
