"""SQLite's WAL checkpoints, off the write path.

By default SQLite checkpoints inside the COMMIT that takes the log past 1,000 pages: that
commit copies the pages into the database file and syncs it, 15–30 ms under load, while
every other write waits behind it (about every 1.5 s at 40 game updates a second, what the
slowest updates waited on). Here the connections never checkpoint on their own
(`wal_autocheckpoint = 0`, set where they connect) and a thread of the process does it
every `interval` seconds with a PASSIVE checkpoint: it copies what no reader still needs
while commits go on, outside the GIL, and the log starts over at the next write once
everything was copied. What is durable is unchanged: a commit is in the log, synced, when
it returns; the checkpoint syncs the database file before the log is reused.
"""

from __future__ import annotations

import contextlib
import logging
import threading

from sqlalchemy import Engine
from sqlalchemy.exc import DBAPIError

log = logging.getLogger(__name__)

INTERVAL = 0.5  # seconds between checkpoints
LARGE_LOG = 50_000  # pages (about 200 MB) left in the log after a checkpoint: worth a word


class Checkpointer:
    """A daemon thread checkpointing one SQLite database every `interval` seconds."""

    def __init__(self, engine: Engine, interval: float = INTERVAL) -> None:
        self.engine = engine
        self.interval = interval
        self.checkpoints = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="whodunit-sqlite-checkpoint")
        self._thread.daemon = True
        self._thread.start()

    def checkpoint(self) -> tuple[int, int, int]:
        """One PASSIVE checkpoint: (busy, pages in the log, pages copied), as SQLite says."""
        raw = self.engine.raw_connection()
        try:
            cursor = raw.cursor()
            try:
                cursor.execute("PRAGMA wal_checkpoint(PASSIVE)")
                busy, pages, copied = cursor.fetchone() or (1, 0, 0)
            finally:
                cursor.close()
        finally:
            raw.close()
        self.checkpoints += 1
        return int(busy), int(pages), int(copied)

    def stop(self) -> None:
        """Stop after the checkpoint under way, if any."""
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            try:
                _busy, pages, copied = self.checkpoint()
            except DBAPIError as error:  # the next one tries again
                log.warning("SQLite checkpoint failed: %s", error.orig)
                continue
            if pages - copied > LARGE_LOG:
                log.warning("SQLite log holds %d pages a reader still needs", pages - copied)
        with contextlib.suppress(DBAPIError):
            self.checkpoint()  # the last commits into the file before the engine goes
