"""Running a command: decided once per attempt, its writes described once
(storage.command_write) and written by its backend's one write (storage.write_postgresql,
storage.write_sqlite), in one transaction or, on PostgreSQL, one statement.

Writers of one game take turns. An attempt is optimistic or locked; they differ only in
how they read:

- optimistic: if this process wrote the game's last event, it decides on the state it
  cached then (no read at all) and the write's compare-and-set on the game row (last_seq =
  the cached seq, chat = the cached chat, which a group upgrade changes) proves it current.
  On PostgreSQL an update's command makes this attempt as one statement in autocommit on
  the driver (one round trip); otherwise in the write transaction.
- locked: the game's row read and locked (SELECT ... FOR UPDATE on PostgreSQL; BEGIN
  IMMEDIATE already holds SQLite's single write lock), then its state (from the cache when
  it is at that seq; a decision already made on that very state is not made again).

A failed optimistic attempt (another writer came first) is followed by another optimistic
one when a writer of this process has cached a newer state meanwhile (PostgreSQL: the
statement on the driver failed, the transaction decides on that newer state), else by the
locked one.
Should two writers still collide (the event seq is unique per game), the loser rolls back
and retries on fresh state, up to MAX_TRIES times. A rule error rolls back: nothing is
written. A command run for an update that already ran it writes nothing and returns the
game as it is, with no events (storage.updates).
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import datetime
from typing import Any, TypeVar

from sqlalchemy import insert, select
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from engine import REGISTRY
from engine.commands import Command, OpenLobby
from engine.decide import decide_and_apply
from engine.errors import GameExists, NoGame, RuleError
from engine.registry import Registry
from engine.state import Game
from storage.cache import Known, StateCache
from storage.chats import Chats
from storage.claims import Handoff
from storage.command_write import CommandWrite, describe, written_state
from storage.database import Database, DriverError
from storage.deadlines import due_times, stored_deadlines
from storage.deciding import Decided, decide, plan
from storage.games import OpenGames, open_game
from storage.log import load_state
from storage.messages_owed import LogUnread, Planner
from storage.models import GameRecord
from storage.outcome import LEASE, Conflict, Outcome, Written, retryable, retryable_sqlstate
from storage.updates import AlreadyHandled, UpdateStep, ensure_new
from storage.write_postgresql import write_in_transaction, write_on_driver
from storage.write_sqlite import write_on_cursor

T = TypeVar("T")
log = logging.getLogger(__name__)
MAX_TRIES = 20


class Commands:
    """Runs commands on games for Store (which exposes `create_game` and `execute`)."""

    def __init__(
        self,
        db: Database,
        chats: Chats,
        open_games: OpenGames,
        *,
        snapshot_every: int | None,
        cache_size: int,
        registry: Registry = REGISTRY,
    ) -> None:
        self.db = db
        self.registry = registry  # the formats the games may be in
        self.chats = chats
        self.open_games = open_games
        self.snapshot_every = snapshot_every
        self.cache = StateCache(cache_size)
        # The worker whose sender takes a command's messages straight from its Outcome (the
        # head rows of their chats, claimed by the command's write); None: nobody here
        # does, and the rows wait to be claimed.
        self.claim_for: str | None = None
        # For monitoring: writes retried after a collision or a lost connection, and
        # optimistic attempts that found the game changed by another writer.
        self.retries = 0
        self.optimistic_misses = 0

    async def create_game(
        self,
        chat_id: int,
        topic_id: int,
        command: OpenLobby,
        now: datetime,
        planner: Planner | None,
        step: UpdateStep | None,
    ) -> Outcome:
        """Open a lobby in a chat topic; a GameExists rule error if one is not ended yet."""

        def attempt(conn: Connection) -> Written:
            return self._create(conn, chat_id, topic_id, command, now, planner, step)

        return await self._in_transaction(step, attempt)

    async def execute(
        self,
        game_id: int,
        command: Command,
        now: datetime,
        planner: Planner | None,
        step: UpdateStep | None,
    ) -> Outcome:
        """Run a command on a game; RuleError propagates and nothing is written."""
        tried: Decided | None = None
        if self.db.async_engine is not None and step is not None:
            done = await self._optimistic_on_driver(game_id, command, now, planner, step)
            if isinstance(done, Outcome):
                return done
            tried = done

        def attempts(conn: Connection) -> Written:
            return self._attempts(conn, game_id, command, now, planner, step, tried)

        return await self._in_transaction(step, attempts)

    async def load(self, game_id: int) -> Game:
        """The game's current state; a NoGame rule error if there is no such game."""
        return await self.db.run_read(self._load, game_id)

    # --- the attempts -------------------------------------------------------------
    async def _optimistic_on_driver(
        self,
        game_id: int,
        command: Command,
        now: datetime,
        planner: Planner | None,
        step: UpdateStep,
    ) -> Outcome | Decided | None:
        """PostgreSQL, an update's command: the optimistic attempt as one statement in
        autocommit. Its Outcome when it wrote; else what it decided (None: nothing), for
        the transaction that follows. Only for an update's command: should the connection
        fail after the statement committed, the transaction finds the update's row and
        writes nothing."""
        cached = self.cache.get(game_id)
        if cached is None or not cached.written_here:
            return None
        place = self.chats.known_label(cached.chat_id, cached.topic_id)
        if place is None:  # the transaction reads it
            return None
        try:
            decided = decide(cached, command, now, planner, lambda: place, None, self.registry)
        except LogUnread:  # its planner reads the log: the transaction does
            return None
        if decided.decision is None:  # refused: the transaction checks the game is current
            return decided
        write = self._describe(decided, now, step)
        try:
            handoff = await self.db.run_driver(lambda driver: write_on_driver(driver, write, now))
        except DriverError as exc:  # a lost connection, the same update at once elsewhere
            self.retries += 1
            if not retryable_sqlstate(exc.sqlstate):  # a race is no news
                log.warning("one-statement write failed (%s); retried in a transaction", exc)
            return decided
        if handoff is None:
            self.optimistic_misses += 1
            return decided
        written = _written(decided, write, handoff)
        self._remember(written)
        return written[0]

    def _attempts(
        self,
        conn: Connection,
        game_id: int,
        command: Command,
        now: datetime,
        planner: Planner | None,
        step: UpdateStep | None,
        tried: Decided | None,
    ) -> Written:
        """In the write transaction: the optimistic attempt (unless made already on the
        state cached now: one of this process's writers may have cached a newer one since),
        then the locked one."""
        cached = self.cache.get(game_id)
        newer = tried is None or (cached is not None and not _same(tried.known, cached))
        if newer and cached is not None and cached.written_here:
            tried = decide(
                cached, command, now, planner, self._place(conn, cached), conn, self.registry
            )
            written = self._write(conn, tried, now, step, locked=False)
            if written is not None:
                return written
            self.optimistic_misses += 1
        row = conn.execute(self._lock_game(game_id)).first()
        if row is None:
            raise NoGame()
        fresh = self._fresh(conn, row)
        if tried is None or not _same(tried.known, fresh):
            tried = decide(
                fresh, command, now, planner, self._place(conn, fresh), conn, self.registry
            )
        written = self._write(conn, tried, now, step, locked=True)
        if written is None:  # only a repeated update writes nothing under the lock
            if step is not None:
                ensure_new(conn, step)  # raises AlreadyHandled
            raise Conflict(game_id)
        return written

    def _create(
        self,
        conn: Connection,
        chat_id: int,
        topic_id: int,
        command: OpenLobby,
        now: datetime,
        planner: Planner | None,
        step: UpdateStep | None,
    ) -> Written:
        if open_game(conn, chat_id, topic_id) is not None:
            raise GameExists()
        decision = decide_and_apply(None, command, now, self.registry)
        values: dict[str, Any] = {"chat_id": chat_id, "topic_id": topic_id, "last_seq": 0}
        values |= {"status": decision.state.phase.value, "created_at": now, "updated_at": now}
        try:
            query = insert(GameRecord).values(values).returning(GameRecord.id)
            game_id = conn.execute(query).scalar_one()
        except IntegrityError:  # another writer opened one first (PostgreSQL)
            raise GameExists() from None
        empty = Known(game_id, 0, decision.state, chat_id, topic_id, deadlines={})
        items = plan(planner, empty, decision, self._place(conn, empty), conn, self.registry)
        written = self._write(conn, Decided(empty, decision, None, items), now, step, locked=True)
        if written is None:
            if step is not None:
                ensure_new(conn, step)  # raises AlreadyHandled
            raise Conflict(game_id)
        return written

    def _write(
        self,
        conn: Connection,
        decided: Decided,
        now: datetime,
        step: UpdateStep | None,
        locked: bool,
    ) -> Written | None:
        """Write what was decided (a refusal is raised); None if the game moved on (an
        optimistic attempt) or the update's step ran already: nothing was written."""
        if decided.decision is None:
            assert decided.refusal is not None
            if locked or _current(conn, decided.known):
                raise decided.refusal
            return None
        known = decided.known
        if known.deadlines is None:  # the locked attempt, the state read from the log
            known = replace(known, deadlines=stored_deadlines(conn, known.game_id))
            decided = replace(decided, known=known)
        write = self._describe(decided, now, step)
        if self.db.async_engine is not None:
            handoff = write_in_transaction(conn, write, now)
        else:
            handoff = write_on_cursor(conn, write, now)
        return _written(decided, write, handoff) if handoff is not None else None

    def _describe(self, decided: Decided, now: datetime, step: UpdateStep | None) -> CommandWrite:
        assert decided.decision is not None
        worker, every = self.claim_for, self.snapshot_every
        known, decision, items = decided.known, decided.decision, decided.items
        return describe(
            known, decision, now, items, step, worker=worker, lease=LEASE, snapshot_every=every
        )

    # --- reading --------------------------------------------------------------------
    def _lock_game(self, game_id: int) -> Any:
        """The game's row, locked until commit: writers of one game take turns."""
        return select(GameRecord).where(GameRecord.id == game_id).with_for_update()

    def _fresh(self, conn: Connection, row: Any) -> Known:
        """The game's state at the row's last_seq, from the cache where it can."""
        known = self.cache.get(row.id)
        if known is not None and known.seq == row.last_seq and _same_place(known, row):
            return known
        base = (known.seq, known.state) if known is not None else None
        state = load_state(conn, row.id, row.last_seq, base, self.registry)
        if state is None:
            raise NoGame()
        fresh = Known(row.id, row.last_seq, state, row.chat_id, row.topic_id)
        self.cache.put(fresh)
        return fresh

    def _load(self, conn: Connection, game_id: int) -> Game:
        row = conn.execute(select(GameRecord).where(GameRecord.id == game_id)).first()
        if row is None:
            raise NoGame()
        return self._fresh(conn, row).state

    def _place(self, conn: Connection, known: Known) -> Callable[[], str]:
        """The game's chat label, read (or taken from memory) when a planner asks."""
        return lambda: self.chats.cached_label(conn, known.chat_id, known.topic_id)

    # --- the transaction ------------------------------------------------------------
    async def _in_transaction(
        self, step: UpdateStep | None, attempt: Callable[[Connection], Written]
    ) -> Outcome:
        """`attempt` in a write transaction, retried after a collision; the state it wrote
        is cached once the transaction has committed (and before the next one)."""

        def once(conn: Connection) -> Written:
            try:
                return attempt(conn)
            except RuleError:
                if step is not None:
                    ensure_new(conn, step)  # a command run already is silent, not refused
                raise

        try:
            outcome, _ = await self._retrying(
                lambda: self.db.run_transaction(once, after_commit=self._remember)
            )
        except AlreadyHandled as seen:
            state = await self.load(seen.game_id)
            return Outcome(seen.game_id, [], state, seen.last_seq + 1)
        return outcome

    def _remember(self, written: Written) -> None:
        known = written[1]
        if known is not None:
            self.cache.put(known)
            self.open_games.written(known)

    async def _retrying(self, attempt: Callable[[], Awaitable[T]]) -> T:
        for tries in range(1, MAX_TRIES + 1):
            try:
                return await attempt()
            except Exception as exc:
                if tries == MAX_TRIES or not retryable(exc):
                    raise
                self.retries += 1
            await asyncio.sleep(random.uniform(0, min(0.25, 0.002 * 2**tries)))
        raise AssertionError("unreachable")  # pragma: no cover


def _written(decided: Decided, write: CommandWrite, handoff: Handoff) -> Written:
    """A write's outcome, and the state it left (None when it wrote no events)."""
    known, decision = decided.known, decided.decision
    assert decision is not None
    if not decision.events:
        return Outcome(known.game_id, [], known.state, known.seq + 1), None
    after = written_state(known, decision, write)
    deadlines = due_times(after.deadlines or {})
    events, state = decision.events, decision.state
    return Outcome(known.game_id, events, state, known.seq + 1, deadlines, handoff), after


def _same(known: Known, fresh: Known) -> bool:
    """Whether a decision on `known` is one on `fresh` (the same game, seq and place)."""
    return known.game_id == fresh.game_id and known.seq == fresh.seq and _same_place(known, fresh)


def _same_place(known: Known, row: Any) -> bool:
    """Whether a known state's chat is still the game's (a group upgrade moves games)."""
    return bool(known.chat_id == row.chat_id and known.topic_id == row.topic_id)


def _current(conn: Connection, known: Known) -> bool:
    """Whether the game is still at the seq `known` follows."""
    query = select(GameRecord.last_seq).where(GameRecord.id == known.game_id)
    return bool(conn.execute(query).scalar_one_or_none() == known.seq)
