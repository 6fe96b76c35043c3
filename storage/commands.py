"""The write path of the store: commands decided by the engine and written with all they
imply, in one transaction (or, on PostgreSQL, one statement). See storage.service."""

from __future__ import annotations

import asyncio
import functools
import logging
import random
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any, Literal, TypeVar

from sqlalchemy import insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError, IntegrityError

from engine.commands import Command, OpenLobby
from engine.decide import decide_and_apply
from engine.decision import Decision
from engine.errors import GameExists, NoGame, RuleError
from engine.state import Game, Phase
from storage.cache import Known, StateCache
from storage.chats import Chats
from storage.claims import Handoff, claim_new
from storage.command_write import CommandWrite
from storage.database import Database, DriverError
from storage.deadlines import due_times, sync_deadlines
from storage.freshness import Copies
from storage.games import GameRef, open_game
from storage.log import append_events, load_state, write_snapshot
from storage.members import sync_members
from storage.messages_owed import OutboxItem, PlanContext, Planner, insert_items
from storage.models import GameRecord
from storage.one_trip import usual_write, write_at_once, write_on_driver, written_state
from storage.one_trip_sqlite import write_on_cursor
from storage.outcome import LEASE, Conflict, Outcome, Written, retryable, retryable_sqlstate
from storage.updates import (
    AlreadyHandled,
    Step,
    UpdateMark,
    ensure_new,
    record_or_raise,
)

T = TypeVar("T")
log = logging.getLogger(__name__)
MAX_TRIES = 20


class Commands:
    """Store's commands (a base of storage.service.Store, which sets these attributes)."""

    db: Database
    chats: Chats
    snapshot_every: int | None
    claim_for: str | None
    retries: int
    optimistic_misses: int
    _cache: StateCache
    _open_games: Copies[tuple[int, int], GameRef]

    async def create_game(
        self,
        chat_id: int,
        topic_id: int,
        command: OpenLobby,
        now: datetime,
        planner: Planner | None = None,
        *,
        update: UpdateMark | None = None,
    ) -> Outcome:
        """Open a lobby in a chat topic; a GameExists rule error if one is not ended yet."""
        body = self._create
        step = update.next_step() if update is not None else None
        return await self._write(step, body, chat_id, topic_id, command, now, planner)

    async def execute(
        self,
        game_id: int,
        command: Command,
        now: datetime,
        planner: Planner | None = None,
        *,
        update: UpdateMark | None = None,
    ) -> Outcome:
        """Run a command on a game; RuleError propagates and nothing is written.

        Run for a Telegram update (`update`) that already ran it (see storage.updates), it
        writes nothing and returns the game as it is, with no events."""
        step = update.next_step() if update is not None else None
        at_once = None
        if self.db.async_engine is not None:  # PostgreSQL: first try it in one round trip
            at_once = functools.partial(self._execute_at_once, game_id, command, now, planner)
        args = (game_id, command, now, planner)
        return await self._write(step, self._execute, *args, at_once=at_once)

    async def _execute_at_once(
        self,
        game_id: int,
        command: Command,
        now: datetime,
        planner: Planner | None,
        step: Step | None,
    ) -> Written | None:
        """PostgreSQL: decide on the state this process wrote last and write it all in one
        statement outside a transaction (storage.one_trip); None when that cannot be (no
        such state, the game moved on, an unusual command): then nothing was written."""
        cached = self._cache.get(game_id)
        if step is None or cached is None or not cached.written_here:
            # Only for an update's command: should the connection fail after the statement
            # committed, the transaction that follows finds the update's row and writes
            # nothing (a scheduler's command goes through a transaction: no doubt there).
            return None
        decision = _decided(cached, command, now)
        place = self.chats.known_label(cached.chat_id, cached.topic_id)
        if decision is not None and place is not None:  # the usual: straight to the driver
            return await self._write_on_driver(cached, decision, now, planner, step, place)

        def attempt(conn: Connection) -> Written | None:
            try:
                written = self._run(
                    conn, cached, command, now, planner, step, optimistic=True, single=True
                )
            except RuleError:
                if step is not None:
                    ensure_new(conn, step)  # a command run already is silent, not refused
                raise
            if written is not None:
                self._remember(written)  # before anything else runs on the event loop
            return written

        try:
            return await self.db.run_single(attempt)
        except DBAPIError as exc:  # a lost connection, the same update at once elsewhere
            self.retries += 1
            if not retryable(exc):
                log.warning("one-statement write failed (%s); retried in a transaction", exc)
            return None

    async def _write_on_driver(
        self,
        known: Known,
        decision: Decision,
        now: datetime,
        planner: Planner | None,
        step: Step,
        place: str,
    ) -> Written | None:
        """PostgreSQL: the one statement on the asyncpg connection itself; None when it did
        not write (the game moved on, an unusual command, an error)."""

        plan = functools.partial(_planned, planner, known, decision, lambda: place)
        every = self.snapshot_every
        write = usual_write(known, decision, now, plan, step, self.claim_for, every)
        if isinstance(write, str):
            return None
        try:
            handoff = await self.db.run_driver(lambda driver: write_on_driver(driver, write, now))
        except DriverError as exc:  # a lost connection, the same update at once elsewhere
            self.retries += 1
            if not retryable_sqlstate(exc.sqlstate):  # a race is no news
                log.warning("one-statement write failed (%s); retried in a transaction", exc)
            return None
        done = _written(known, decision, write, handoff)
        if done is not None:
            self._remember(done)
        return done

    def _create(
        self,
        conn: Connection,
        chat_id: int,
        topic_id: int,
        command: OpenLobby,
        now: datetime,
        planner: Planner | None,
        step: Step | None,
    ) -> Written:
        if open_game(conn, chat_id, topic_id) is not None:
            raise GameExists()
        decision = decide_and_apply(None, command, now)
        events, after = decision.events, decision.state
        values: dict[str, Any] = {"chat_id": chat_id, "topic_id": topic_id}
        values |= {"status": after.phase.value, "last_seq": len(events)}
        values |= {"created_at": now, "updated_at": now}
        try:
            query = insert(GameRecord).values(values).returning(GameRecord.id)
            game_id = conn.execute(query).scalar_one()
        except IntegrityError:  # another writer opened one first (PostgreSQL)
            raise GameExists() from None
        empty = Known(game_id, 0, after, chat_id, topic_id, deadlines={})
        known, handoff = self._record(conn, empty, decision, now, planner)
        record_or_raise(conn, step, game_id, now)
        return Outcome(game_id, events, after, 1, _due(known), handoff), known

    def _execute(
        self,
        conn: Connection,
        game_id: int,
        command: Command,
        now: datetime,
        planner: Planner | None,
        step: Step | None,
    ) -> Written:
        cached = self._cache.get(game_id)
        outcome = None
        if cached is not None and cached.written_here:
            # Optimistic: decide on the state this process wrote last; the game row's
            # compare-and-set says whether anybody wrote since.
            outcome = self._run(conn, cached, command, now, planner, step, optimistic=True)
            self.optimistic_misses += outcome is None
        if outcome is None:
            row = conn.execute(self._lock_game(game_id)).first()
            if row is None:
                raise NoGame()
            outcome = self._run(conn, self._fresh(conn, row), command, now, planner, step)
            assert outcome is not None
        return outcome

    def _fresh(self, conn: Connection, row: Any) -> Known:
        """The game's state at the row's last_seq, from the cache where it can."""
        known = self._cache.get(row.id)
        if known is not None and known.seq == row.last_seq and _same_place(known, row):
            return known
        base = (known.seq, known.state) if known is not None else None
        state = load_state(conn, row.id, row.last_seq, base)
        if state is None:
            raise NoGame()
        fresh = Known(row.id, row.last_seq, state, row.chat_id, row.topic_id)
        self._cache.put(fresh)
        return fresh

    def _run(
        self,
        conn: Connection,
        known: Known,
        command: Command,
        now: datetime,
        planner: Planner | None,
        step: Step | None,
        *,
        optimistic: bool = False,
        single: bool = False,
    ) -> Written | None:
        """Decide on `known` and write; None if optimistic and `known` turned out old, or
        if `single` (one statement that writes, PostgreSQL) and the command needs more."""
        try:
            decision = decide_and_apply(known.state, command, now)
        except RuleError:
            if optimistic and not _current(conn, known):
                return None
            raise
        events = decision.events
        if not events:
            if optimistic and not _current(conn, known):
                return None
            record_or_raise(conn, step, known.game_id, now)
            return Outcome(known.game_id, [], known.state, known.seq + 1), None
        if optimistic:
            at_once = self._run_at_once(conn, known, decision, now, planner, step)
            if not isinstance(at_once, str):
                return at_once
        if single:
            return None
        return self._run_in_steps(conn, known, decision, now, planner, step, optimistic)

    def _run_in_steps(
        self,
        conn: Connection,
        known: Known,
        decision: Decision,
        now: datetime,
        planner: Planner | None,
        step: Step | None,
        optimistic: bool,
    ) -> Written | None:
        """The game row's compare-and-set, then the rest of the writes (`_record`)."""
        events, after = decision.events, decision.state
        values = {"last_seq": known.seq + len(events), "status": after.phase.value}
        g = GameRecord
        cas = (
            update(g)
            .where(g.id == known.game_id, g.last_seq == known.seq, g.chat_id == known.chat_id)
            .values(updated_at=now, **values)
        )
        if conn.execute(cas).rowcount != 1:
            if optimistic:
                return None
            raise Conflict(known.game_id)
        written, handoff = self._record(conn, known, decision, now, planner)
        record_or_raise(conn, step, known.game_id, now)
        outcome = Outcome(known.game_id, events, after, known.seq + 1, _due(written), handoff)
        return outcome, written

    def _run_at_once(
        self,
        conn: Connection,
        known: Known,
        decision: Decision,
        now: datetime,
        planner: Planner | None,
        step: Step | None,
    ) -> Written | Literal["unusual"] | None:
        """Optimistic: the whole write in one statement on PostgreSQL (storage.one_trip),
        on the driver's cursor on SQLite (storage.one_trip_sqlite); "unusual" when the
        command needs more than those write."""
        plan = functools.partial(_planned, planner, known, decision, self._place(conn, known))
        every = self.snapshot_every
        write = usual_write(known, decision, now, plan, step, self.claim_for, every)
        if isinstance(write, str):
            return write
        at_once = write_at_once if conn.dialect.name == "postgresql" else write_on_cursor
        return _written(known, decision, write, at_once(conn, write, now))

    def _place(self, conn: Connection, known: Known) -> Callable[[], str]:
        """The game's chat label, read (or taken from memory) when a planner asks."""
        return functools.partial(self.chats.cached_label, conn, known.chat_id, known.topic_id)

    def _lock_game(self, game_id: int) -> Any:
        """The game's row, locked until commit: writers of one game take turns."""
        return select(GameRecord).where(GameRecord.id == game_id).with_for_update()

    def _record(
        self,
        conn: Connection,
        known: Known,
        decision: Decision,
        now: datetime,
        planner: Planner | None,
    ) -> tuple[Known, Handoff]:
        """Everything a command writes besides the game row, in the caller's transaction."""
        before, events, after = decision.before, decision.events, decision.state
        game_id, last_seq = known.game_id, known.seq
        first_seq = last_seq + 1
        append_events(conn, game_id, first_seq, events, now)
        handoff = Handoff()
        if planner is not None:
            items = _planned(planner, known, decision, self._place(conn, known))
            insert_items(conn, items, now, game_id, count=False)
            if self.claim_for is not None and items:
                handoff = claim_new(conn, items, now, self.claim_for, LEASE)
        rows = sync_deadlines(conn, game_id, after, now, known.deadlines)
        sync_members(conn, game_id, before, after)
        every = self.snapshot_every
        new_seq = last_seq + len(events)
        if every and new_seq // every > last_seq // every:
            write_snapshot(conn, game_id, new_seq, after, now)
        return Known(game_id, new_seq, after, known.chat_id, known.topic_id, rows), handoff

    async def _write(
        self,
        step: Step | None,
        body: Callable[..., Written],
        *args: Any,
        at_once: Callable[[Step | None], Awaitable[Written | None]] | None = None,
    ) -> Outcome:
        """Run a command body in a write transaction, retried after a collision; the state
        it wrote is cached once the transaction has committed (and before the next one).
        `at_once(step)`, if given, is tried first; None from it means nothing was written."""
        def once(conn: Connection) -> Written:
            try:
                return body(conn, *args, step)
            except RuleError:
                if step is not None:
                    ensure_new(conn, step)  # a command run already is silent, not refused
                raise

        try:
            written = await at_once(step) if at_once is not None else None
            if written is not None:
                return written[0]
            outcome, _ = await self._retrying(lambda: self.db.run_write_then(once, self._remember))
        except AlreadyHandled as seen:
            state = await self.load(seen.game_id)
            return Outcome(seen.game_id, [], state, seen.last_seq + 1)
        return outcome

    async def load(self, game_id: int) -> Game:
        """The game's current state; a NoGame rule error if there is no such game."""
        return await self.db.run_read(self._load, game_id)

    def _load(self, conn: Connection, game_id: int) -> Game:
        row = conn.execute(select(GameRecord).where(GameRecord.id == game_id)).first()
        if row is None:
            raise NoGame()
        return self._fresh(conn, row).state

    def _remember(self, written: Written) -> None:
        known = written[1]
        if known is None:
            return
        self._cache.put(known)
        place = (known.chat_id, known.topic_id)
        if known.state.phase == Phase.ENDED:
            self._open_games.pop(place)
        else:
            ref = GameRef(known.game_id, known.chat_id, known.topic_id, known.state.phase.value)
            self._open_games.put(place, ref)

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


def _decided(known: Known, command: Command, now: datetime) -> Decision | None:
    """The engine's decision on `known` when it writes events; None for a refusal or a
    command that changes nothing (those take the path that checks the game is current)."""
    try:
        decision = decide_and_apply(known.state, command, now)
    except RuleError:
        return None
    return decision if decision.events else None


def _written(
    known: Known, decision: Decision, write: CommandWrite, handoff: Handoff | None
) -> Written | None:
    """A fast write's outcome and the state it left (None: it wrote nothing)."""
    if handoff is None:
        return None
    written = written_state(known, decision, write)
    events, after = decision.events, decision.state
    outcome = Outcome(known.game_id, events, after, known.seq + 1, _due(written), handoff)
    return outcome, written


def _planned(
    planner: Planner | None, known: Known, decision: Decision, place: Callable[[], str]
) -> list[OutboxItem]:
    """The messages a command decided on `known` owes (`place()`: its chat's label)."""
    if planner is None:
        return []
    chat, topic, first = known.chat_id, known.topic_id, known.seq + 1
    return planner(PlanContext(known.game_id, chat, topic, decision, first, place()))


def _due(written: Known) -> dict[str, datetime]:
    """The deadline rows a command left its game with."""
    return due_times(written.deadlines or {})


def _same_place(known: Known, row: Any) -> bool:
    """Whether a known state's chat is still the game's (a group upgrade moves games)."""
    return bool(known.chat_id == row.chat_id and known.topic_id == row.topic_id)


def _current(conn: Connection, known: Known) -> bool:
    """Whether the game is still at the seq `known` follows."""
    query = select(GameRecord.last_seq).where(GameRecord.id == known.game_id)
    return bool(conn.execute(query).scalar_one_or_none() == known.seq)
