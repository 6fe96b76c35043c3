"""What a command did (Outcome), and which failures of its write may be retried."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from engine.events import Event
from engine.state import Game
from storage.cache import Known
from storage.claims import Handoff
from storage.database import Disconnected


@dataclass(frozen=True)
class Outcome:
    """What a command did: its events (maybe none), the state after, the first event's seq,
    and, when it wrote events, the game's deadline rows after it (key -> due_at), so the
    scheduler moves just this game's timers."""

    game_id: int
    events: list[Event]
    state: Game
    first_seq: int
    deadlines: dict[str, datetime] | None = None
    handoff: Handoff = field(default_factory=Handoff)

    @property
    def last_seq(self) -> int:
        return self.first_seq + len(self.events) - 1


Written = tuple[Outcome, Known | None]  # a command's outcome, and the state it wrote
LEASE = timedelta(seconds=60)  # how long a claim at insert holds a message


UNIQUE_VIOLATION = "23505"


class Conflict(Exception):
    """Another writer changed the game first; the command is retried on fresh state."""


def retryable(exc: BaseException) -> bool:
    """Errors after which the transaction certainly rolled back and a retry is safe."""
    if isinstance(exc, Conflict | Disconnected):
        return True
    if isinstance(exc, sqlite3.Error):  # raised by the driver's cursor (storage.write_sqlite)
        locked = isinstance(exc, sqlite3.OperationalError) and "database is locked" in str(exc)
        taken = isinstance(exc, sqlite3.IntegrityError) and "UNIQUE constraint failed" in str(exc)
        return locked or taken
    if isinstance(exc, IntegrityError):  # a seq (or deadline key) taken by another writer
        code = getattr(exc.orig, "sqlstate", None) or getattr(exc.orig, "pgcode", None)
        return code == UNIQUE_VIOLATION or "UNIQUE constraint failed" in str(exc.orig)
    if isinstance(exc, OperationalError) and "database is locked" in str(exc):
        return True  # SQLite: the busy timeout ran out
    if isinstance(exc, DBAPIError):
        code = getattr(exc.orig, "sqlstate", None) or getattr(exc.orig, "pgcode", None)
        return code in ("40001", "40P01")  # serialization failure, deadlock
    return False


def retryable_sqlstate(code: str | None) -> bool:
    """A PostgreSQL refusal that only says another writer came first: a unique key taken,
    a serialization failure, a deadlock (what `retryable` retries on PostgreSQL)."""
    return code in (UNIQUE_VIOLATION, "40001", "40P01")


def unavailable(exc: BaseException) -> bool:
    """The database did not answer in time or the connection broke (a pool timeout, a lost
    or refused connection, a locked SQLite): nothing is wrong with what was asked, and
    asking again later is safe."""
    if isinstance(exc, PoolTimeout | Disconnected | OperationalError | sqlite3.OperationalError):
        return True
    if isinstance(exc, DBAPIError):
        return bool(exc.connection_invalidated)
    return isinstance(exc, ConnectionError | TimeoutError)
