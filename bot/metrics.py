"""Prometheus metrics (the official `prometheus-client`), on its default registry.

Counters and the latency histogram are moved by the process as it works (`bot/observe.py`
for updates, the sender for 429s). The figures that live in the database (the outbox
backlog and the age of its oldest unsent row, deadlines due and late, games by phase) are
gauges refreshed by `DatabaseGauges` every `REFRESH_SECONDS` in the background, with a few
cheap aggregate queries: never per update, and a scrape never waits for the database.
Every worker reports the same database figures; aggregate them with `max`, not `sum`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from types import MappingProxyType

from prometheus_client import Counter, Gauge, Histogram
from sqlalchemy import func, select
from sqlalchemy.engine import Connection

from storage.database import Database
from storage.models import DeadlineRecord, DeadlineStatus, GameRecord, OutboxRecord, OutboxStatus

log = logging.getLogger(__name__)

REFRESH_SECONDS = 15.0
LATE_AFTER = timedelta(seconds=60)  # a due deadline still pending this long after is late

UPDATES_HANDLED = Counter(
    "whodunit_updates_handled",
    "Updates handled, by kind (message, callback_query, ...) and outcome (ok, refused, error)",
    ["kind", "outcome"],
)
UPDATES_REFUSED = Counter(
    "whodunit_updates_refused",
    "Updates refused, by reason (flood, forged_button, stale_button, rule, wrong_place)",
    ["reason"],
)
COMMAND_SECONDS = Histogram(
    "whodunit_command_seconds",
    "Time to handle an update, by command (/name, button:<kind>, or the update's kind)",
    ["command"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
)
TOO_MANY_REQUESTS = Counter(
    "whodunit_telegram_429",
    "429 Too Many Requests answers received from the Bot API, by who made the call",
    ["source"],
)
BACKLOG = (*OutboxStatus.unfinished(), OutboxStatus.OWED)  # owed: a story still to compose
OUTBOX_BACKLOG = Gauge("whodunit_outbox_backlog", "Outbox rows not yet sent, by status", ["status"])
OUTBOX_OLDEST_AGE = Gauge(
    "whodunit_outbox_oldest_unsent_age_seconds",
    "Age of the oldest pending or claimed outbox row (0 when there is none)",
)
DEADLINES_DUE = Gauge("whodunit_deadlines_due", "Pending deadlines whose moment has come")
DEADLINES_LATE = Gauge(
    "whodunit_deadlines_late",
    f"Pending deadlines more than {int(LATE_AFTER.total_seconds())} s past their moment",
)
GAMES = Gauge("whodunit_games", "Games not ended, by phase", ["phase"])
REFRESHED = Gauge(
    "whodunit_database_gauges_refreshed_timestamp_seconds",
    "When the database gauges were last refreshed (Unix time)",
)

REFUSAL_REASONS = MappingProxyType(
    {
        "flood": "flood",
        "not_yours": "forged_button",
        "stale": "stale_button",
        "group_only": "wrong_place",
        "private_only": "wrong_place",
    }
)


def refusal_reason(code: str) -> str:
    """The metric's reason for a refusal code (a rule error's code is a "rule" refusal)."""
    return REFUSAL_REASONS.get(code, "rule")


@dataclass(frozen=True)
class Figures:
    """The database's figures at one moment."""

    backlog: dict[str, int]
    oldest_unsent_age: float
    deadlines_due: int
    deadlines_late: int
    games: dict[str, int]


def read_figures(conn: Connection, now: datetime) -> Figures:
    """A handful of aggregate queries, each served by an index (see storage/models.py)."""
    o, d, g = OutboxRecord, DeadlineRecord, GameRecord
    unfinished = [s.value for s in BACKLOG]
    backlog = dict(
        conn.execute(
            select(o.status, func.count()).where(o.status.in_(unfinished)).group_by(o.status)
        ).all()
    )
    waiting = (OutboxStatus.PENDING.value, OutboxStatus.CLAIMED.value)
    oldest = conn.execute(select(func.min(o.created_at)).where(o.status.in_(waiting))).scalar()
    pending = d.status == DeadlineStatus.PENDING.value
    due = conn.execute(select(func.count()).where(pending, d.due_at <= now)).scalar()
    late = conn.execute(select(func.count()).where(pending, d.due_at <= now - LATE_AFTER)).scalar()
    games = dict(
        conn.execute(
            select(g.status, func.count()).where(g.status != "ended").group_by(g.status)
        ).all()
    )
    age = 0.0
    if isinstance(oldest, datetime):  # aware: min() keeps the column's UTCDateTime type
        age = max(0.0, (now - oldest).total_seconds())
    return Figures(
        backlog={str(k): int(v) for k, v in backlog.items()},
        oldest_unsent_age=age,
        deadlines_due=int(due or 0),
        deadlines_late=int(late or 0),
        games={str(k): int(v) for k, v in games.items()},
    )


def publish(figures: Figures, at: datetime) -> None:
    """Set the gauges from the figures (every status and phase, zeros included)."""
    for status in BACKLOG:
        OUTBOX_BACKLOG.labels(status=status.value).set(figures.backlog.get(status.value, 0))
    OUTBOX_OLDEST_AGE.set(figures.oldest_unsent_age)
    DEADLINES_DUE.set(figures.deadlines_due)
    DEADLINES_LATE.set(figures.deadlines_late)
    for phase in ("lobby", "running", *figures.games):
        GAMES.labels(phase=phase).set(figures.games.get(phase, 0))
    REFRESHED.set(at.timestamp())


class DatabaseGauges:
    """Refreshes the database gauges in the background, every `every` seconds."""

    def __init__(
        self, db: Database, clock: Callable[[], datetime], every: float = REFRESH_SECONDS
    ) -> None:
        self.db = db
        self.clock = clock
        self.every = every
        self.task: asyncio.Task[None] | None = None

    async def refresh(self) -> Figures:
        """Read the figures now and publish them."""
        now = self.clock()
        figures = await self.db.run_read(read_figures, now)
        publish(figures, now)
        return figures

    async def _loop(self) -> None:
        while True:
            try:
                await self.refresh()
            except Exception:  # a database hiccup: the gauges keep their last values
                log.warning("metrics: the database figures could not be read", exc_info=True)
            await asyncio.sleep(self.every)

    def start(self) -> None:
        if self.task is None:
            self.task = asyncio.create_task(self._loop(), name="metrics-refresh")

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
            self.task = None
