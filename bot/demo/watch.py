"""What the stage watches to know whether the bot is busy or only waiting: the waits the
outbound limiter answered (a delivery, or a handler's own call, asleep until its slot
frees), and the outbox rows still owed per chat and when the next one falls due."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from sqlalchemy import BigInteger, bindparam, text
from sqlalchemy.engine import Connection

from bot.delivery.limiter import OutboundLimiter, Reservation
from storage.claims import claimable, tried
from storage.models import UTCDateTime


class Watched:
    """An outbound limiter passing everything to `inner` and noting, for each wait it
    answered, the chat and the moment the wait ends. A wait is kept until a reservation of
    its chat after its end (its sleeper asking again) or until the stage has let the bot
    settle past it (`forget`): a wait just over still has its sleeper to wake."""

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
        now = self.clock()
        over = next((w for w in self.waits if w[1] == chat_id and w[0] <= now), None)
        if over is not None:  # most likely its sleeper, asking again
            self.waits.remove(over)
        found = await self.inner.reserve(chat_id, count)
        if not isinstance(found, Reservation):
            self.waits.append((now + found, chat_id))
        return found

    async def release(self, reservation: Reservation) -> None:
        await self.inner.release(reservation)

    async def pause(self, chat_id: int, seconds: float) -> None:
        await self.inner.pause(chat_id, seconds)

    async def close(self) -> None:
        await self.inner.close()

    def asleep(self, now: float) -> list[tuple[float, int]]:
        """The waits not over at `now`."""
        return [(end, chat) for end, chat in self.waits if end > now]

    def next_end(self) -> float | None:
        """When the first wait kept ends (perhaps already: its sleeper is yet to wake)."""
        return min((end for end, _ in self.waits), default=None)

    def forget(self, until: float) -> None:
        """The bot has settled past `until`: the waits over by then are done with."""
        self.waits = [(end, chat) for end, chat in self.waits if end > until]


def owed_by_chat(conn: Connection, now: datetime) -> dict[int, int]:
    """Per chat, the outbox rows a sender should be delivering at `now` (claimed ones, and
    those it could claim): storage.claims.deliverable, chat by chat."""
    sql = (
        "SELECT o.chat_id, count(*) FROM outbox o "
        f"WHERE o.status = 'claimed' OR {claimable('o', ':now')} GROUP BY o.chat_id"
    )
    statement = text(sql).bindparams(bindparam("now", type_=UTCDateTime()))
    return {int(chat): int(n) for chat, n in conn.execute(statement, {"now": now}).all()}


def owed_next(conn: Connection, now: datetime, scheduled: bool = True) -> dict[int, datetime]:
    """Per chat, when its first pending row may go: one a sender could claim at `now` (due
    already: no settling has run since), or one due later that was tried before (deferred
    at its chat's limit, or failed) or, with `scheduled`, any (a message scheduled later)."""
    later = "o.next_attempt_at > :now"
    if not scheduled:
        later += f" AND {tried('o')}"
    sql = (
        "SELECT o.chat_id, min(o.next_attempt_at) AS due FROM outbox o WHERE o.status = "
        f"'pending' AND ({later} OR {claimable('o', ':now')}) GROUP BY o.chat_id"
    )
    statement = (
        text(sql)
        .bindparams(bindparam("now", type_=UTCDateTime()))
        .columns(chat_id=BigInteger(), due=UTCDateTime())
    )
    return {int(chat): due for chat, due in conn.execute(statement, {"now": now}).all()}
