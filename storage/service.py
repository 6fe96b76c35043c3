"""The service: decide, plan, write. Store.execute runs a command on a game, the one entry
point for the bot and the scheduler; Store also holds the outbox, the deadline rows,
people, chats, workers and handled updates (see storage/__init__.py).

`execute` loads the game's state, lets the engine decide, and writes in ONE transaction
the events, the outbox rows the planner renders for them, the re-synced deadline rows,
the members and the game's status. A rule error rolls back: nothing is written.

Writers of one game take turns. If this process wrote the game's last event, it decides
on the state it cached then and proves it current with the game row's compare-and-set
(last_seq = the cached seq, chat = the cached chat, which a group upgrade changes), which
also locks the row until commit. Otherwise, or if
the set found another writer had been first, it locks the game's row (SELECT ... FOR
UPDATE on PostgreSQL; BEGIN IMMEDIATE already holds SQLite's single write lock) and
reads the state only then. Should two writers still collide (the event seq is unique per
game), the loser rolls back and retries on fresh state, up to MAX_TRIES times.

On PostgreSQL an update's command decided on the cached state is first tried as one
statement outside a transaction (storage.one_trip: the same writes as data-modifying
CTEs, all hanging on the compare-and-set); when the game moved on or the command needs
more than that statement writes, nothing was written and the transaction above follows.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Literal, TypeVar

from sqlalchemy import insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError

from engine.commands import Command, OpenLobby
from engine.decide import decide_and_apply
from engine.decision import Decision
from engine.errors import GameExists, NoGame, RuleError
from engine.events import Event
from engine.state import Game, Phase
from storage.cache import Known, StateCache
from storage.chats import Chats
from storage.database import Database, Disconnected
from storage.deadlines import Deadlines, due_times, sync_deadlines, wanted_rows
from storage.games import GameRef, find_game, find_open_game, games_of_person, open_game
from storage.log import append_events, event_rows, load_state, read_events, write_snapshot
from storage.members import members, sync_members
from storage.messages_owed import OutboxItem, PlanContext, Planner, insert_items
from storage.migrate import upgrade_database
from storage.models import GameRecord
from storage.one_trip import CommandWrite, fits, write_at_once
from storage.outbox import Handoff, Outbox, claim_new
from storage.people import People
from storage.updates import (
    AlreadyHandled,
    HandledUpdates,
    Step,
    ensure_new,
    next_step,
    record,
)
from storage.workers import Workers

T = TypeVar("T")
log = logging.getLogger(__name__)
MAX_TRIES = 20
_UNUSUAL: Literal["unusual"] = "unusual"  # a command the one-statement write does not cover
OPEN_GAME_SECONDS = 10.0


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
LEASE = timedelta(seconds=60)


class Conflict(Exception):
    """Another writer changed the game first; the command is retried on fresh state."""


def _handled(conn: Connection, step: Step | None, game_id: int, now: datetime) -> None:
    """Record the update's step in the command's transaction; a repeat rolls it all back."""
    if step is not None and not record(conn, step, game_id, now):
        ensure_new(conn, step)  # raises AlreadyHandled
        raise AssertionError(f"update {step.update_id} neither new nor recorded")


def _retryable(exc: BaseException) -> bool:
    """Errors after which the transaction certainly rolled back and a retry is safe."""
    if isinstance(exc, Conflict | Disconnected):
        return True
    if isinstance(exc, IntegrityError):  # a seq (or deadline key) taken by another writer
        code = getattr(exc.orig, "sqlstate", None) or getattr(exc.orig, "pgcode", None)
        return code == "23505" or "UNIQUE constraint failed" in str(exc.orig)
    if isinstance(exc, OperationalError) and "database is locked" in str(exc):
        return True  # SQLite: the busy timeout ran out
    if isinstance(exc, DBAPIError):
        code = getattr(exc.orig, "sqlstate", None) or getattr(exc.orig, "pgcode", None)
        return code in ("40001", "40P01")  # serialization failure, deadlock
    return False


class Store:
    """Games, their logs, outbox and deadlines, people and chat settings, in one database."""

    def __init__(
        self, db: Database, *, snapshot_every: int | None = 100, cache_size: int = 1000
    ) -> None:
        self.db = db
        self.outbox = Outbox(db)
        self.deadlines = Deadlines(db)
        self.people = People(db)
        self.chats = Chats(db)
        self.workers = Workers(db)
        self.updates = HandledUpdates(db)
        self.snapshot_every = snapshot_every
        self._cache = StateCache(cache_size)
        # For monitoring: commands retried after a collision, and optimistic attempts that
        # found the game changed by another writer (they go on under the lock, no retry).
        self.retries = 0
        self.optimistic_misses = 0
        # The worker whose sender takes a command's messages straight from its Outcome (the
        # head rows of their chats, claimed in the command's transaction); None: nobody
        # here does, and the rows wait to be claimed.
        self.claim_for: str | None = None
        # (chat, topic) -> its open game, as this process last saw it (see game_for_chat).
        self._open_games: dict[tuple[int, int], tuple[float, GameRef]] = {}
        self.chats.on_move = self.forget_open_games

    @classmethod
    async def open(
        cls,
        url: str | None = None,
        *,
        migrate: bool = True,
        snapshot_every: int | None = 100,
        **engine_args: Any,
    ) -> Store:
        """Connect to `url` (default: WHODUNIT_DATABASE_URL), migrating the schema first."""
        db = Database(url, **engine_args)
        try:
            if migrate:
                await upgrade_database(db)
        except BaseException:
            await db.dispose()
            raise
        return cls(db, snapshot_every=snapshot_every)

    async def close(self) -> None:
        await self.db.dispose()

    def forget_cached_states(self) -> None:
        """Drop this process's cached states (they are never stale; this only frees memory)."""
        self._cache.clear()

    # --- commands ------------------------------------------------------------
    async def create_game(
        self,
        chat_id: int,
        topic_id: int,
        command: OpenLobby,
        now: datetime,
        planner: Planner | None = None,
    ) -> Outcome:
        """Open a lobby in a chat topic; a GameExists rule error if one is not ended yet."""
        body = self._create
        return await self._write(now, body, chat_id, topic_id, command, now, planner)

    async def execute(
        self, game_id: int, command: Command, now: datetime, planner: Planner | None = None
    ) -> Outcome:
        """Run a command on a game; RuleError propagates and nothing is written.

        Run for a Telegram update that already ran it (see storage.updates), it writes
        nothing and returns the game as it is, with no events."""
        at_once = None
        if self.db.async_engine is not None:  # PostgreSQL: first try it in one round trip
            at_once = functools.partial(self._execute_at_once, game_id, command, now, planner)
        args = (game_id, command, now, planner)
        return await self._write(now, self._execute, *args, at_once=at_once)

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
            if not _retryable(exc):
                log.warning("one-statement write failed (%s); retried in a transaction", exc)
            return None

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
        _handled(conn, step, game_id, now)
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
            _handled(conn, step, known.game_id, now)
            return Outcome(known.game_id, [], known.state, known.seq + 1), None
        if optimistic and conn.dialect.name == "postgresql":
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
        _handled(conn, step, known.game_id, now)
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
        """PostgreSQL, optimistic: the whole write in one statement (storage.one_trip);
        _UNUSUAL when the command needs more than that statement writes."""
        before, events, after = decision.before, decision.events, decision.state
        game_id, chat, topic = known.game_id, known.chat_id, known.topic_id
        new_seq = known.seq + len(events)
        every = self.snapshot_every
        if (
            known.deadlines is None
            or members(before) != members(after)
            or (every and new_seq // every > known.seq // every)
        ):
            return _UNUSUAL
        items: list[OutboxItem] = []
        if planner is not None:
            place = self.chats.cached_label(conn, chat, topic)
            items = planner(PlanContext(game_id, chat, topic, decision, known.seq + 1, place))
        if not fits(items):
            return _UNUSUAL
        wanted = wanted_rows(after)
        write = CommandWrite(
            game_id=game_id,
            chat_id=chat,
            seq=known.seq,
            new_seq=new_seq,
            status=after.phase.value,
            events=event_rows(game_id, known.seq + 1, events, now),
            had=known.deadlines or {},
            wanted=wanted,
            items=items,
            step=step,
            worker=self.claim_for,
            lease=LEASE,
        )
        handoff = write_at_once(conn, write, now)
        if handoff is None:
            return None
        written = Known(game_id, new_seq, after, chat, topic, wanted)
        outcome = Outcome(game_id, events, after, known.seq + 1, _due(written), handoff)
        return outcome, written

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
            chat, topic = known.chat_id, known.topic_id
            place = self.chats.cached_label(conn, chat, topic)
            ctx = PlanContext(game_id, chat, topic, decision, first_seq, place)
            items = planner(ctx)
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
        now: datetime,
        body: Callable[..., Written],
        *args: Any,
        at_once: Callable[[Step | None], Awaitable[Written | None]] | None = None,
    ) -> Outcome:
        """Run a command body in a write transaction, retried after a collision; the state
        it wrote is cached once the transaction has committed (and before the next one).
        `at_once(step)`, if given, is tried first; None from it means nothing was written."""
        step = next_step()

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

    def _remember(self, written: Written) -> None:
        known = written[1]
        if known is None:
            return
        self._cache.put(known)
        place = (known.chat_id, known.topic_id)
        if known.state.phase == Phase.ENDED:
            self._open_games.pop(place, None)
        else:
            ref = GameRef(known.game_id, known.chat_id, known.topic_id, known.state.phase.value)
            self._keep_open_game(place, ref)

    def _keep_open_game(self, place: tuple[int, int], ref: GameRef) -> None:
        if len(self._open_games) > 10_000:
            self._open_games.clear()
        self._open_games[place] = (time.monotonic(), ref)

    async def _retrying(self, attempt: Callable[[], Awaitable[T]]) -> T:
        for tries in range(1, MAX_TRIES + 1):
            try:
                return await attempt()
            except Exception as exc:
                if tries == MAX_TRIES or not _retryable(exc):
                    raise
                self.retries += 1
            await asyncio.sleep(random.uniform(0, min(0.25, 0.002 * 2**tries)))
        raise AssertionError("unreachable")  # pragma: no cover

    # --- questions ------------------------------------------------------------
    async def load(self, game_id: int) -> Game:
        """The game's current state; a NoGame rule error if there is no such game."""
        return await self.db.run_read(self._load, game_id)

    def _load(self, conn: Connection, game_id: int) -> Game:
        row = conn.execute(select(GameRecord).where(GameRecord.id == game_id)).first()
        if row is None:
            raise NoGame()
        return self._fresh(conn, row).state

    async def events(self, game_id: int) -> list[Event]:
        """The game's whole log, in order."""
        return await self.db.run_read(read_events, game_id)

    async def game(self, game_id: int) -> GameRef | None:
        return await self.db.run_read(find_game, game_id)

    async def game_for_chat(self, chat_id: int, topic_id: int) -> GameRef | None:
        """The chat topic's game that has not ended, if any.

        Asked for nearly every update, so kept per process: a game this process opened,
        moved or ended is known at once; one opened or ended by another worker within
        OPEN_GAME_SECONDS (its `status` may lag: the state is what counts)."""
        place = (chat_id, topic_id)
        found = self._open_games.get(place)
        if found is not None and time.monotonic() - found[0] < OPEN_GAME_SECONDS:
            return found[1]
        ref = await self.db.run_read(find_open_game, chat_id, topic_id)
        if ref is not None:
            self._keep_open_game(place, ref)
        return ref

    def forget_open_games(self) -> None:
        """After a chat moved (a group became a supergroup): look them up again."""
        self._open_games.clear()

    async def recent_state(self, game_id: int) -> Game:
        """The game's state as this process last knew it (no read when it knows one): for
        reading a command's arguments, which the command's own transaction checks again."""
        known = self._cache.get(game_id)
        return known.state if known is not None else await self.load(game_id)

    async def games_of_person(self, user_id: int) -> list[GameRef]:
        """Games not ended where the person is in the lobby or holds a seat, oldest first."""
        return await self.db.run_read(games_of_person, user_id)


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
