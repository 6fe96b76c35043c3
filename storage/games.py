"""The service: run a command on a game. One entry point for the bot and the scheduler.

`execute` loads the game's state, lets the engine decide, and writes in ONE transaction
the events, the outbox rows the planner renders for them, the re-synced deadline rows,
the members and the game's status. Writers of one game take turns: the transaction
starts by locking the game's row (SELECT ... FOR UPDATE on PostgreSQL; BEGIN IMMEDIATE
already holds SQLite's single write lock) and reads the state only then, so each writer
decides on the state the previous one left. Should two writers still collide (the event
sequence is unique per game and the game's last_seq is compare-and-set), the loser
rolls back and retries on fresh state. A rule error rolls back: nothing is written.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

from sqlalchemy import insert, select, update
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError
from sqlalchemy.ext.asyncio import AsyncConnection

from engine.commands import Command, OpenLobby
from engine.decide import decide
from engine.errors import RuleError
from engine.events import Event
from engine.evolve import replay
from engine.state import Game, Phase
from storage.chats import Chats
from storage.database import Database
from storage.deadlines import DeadlineRow, DeadlineStore, sync_deadlines
from storage.log import StateCache, append_events, load_state, read_events, write_snapshot
from storage.members import sync_members
from storage.migrate import upgrade_database
from storage.models import GameRecord, MemberRecord
from storage.outbox import OutboxStore, insert_items
from storage.people import People
from storage.planning import PlanContext, Planner

T = TypeVar("T")
MAX_TRIES = 20
ENDED = Phase.ENDED.value


@dataclass(frozen=True)
class Outcome:
    """What a command did: its events (maybe none), the state after, the first event's seq."""

    game_id: int
    events: list[Event]
    state: Game
    first_seq: int


@dataclass(frozen=True)
class GameRef:
    id: int
    chat_id: int
    topic_id: int
    status: str


class Conflict(Exception):
    """Another writer changed the game first; the command is retried on fresh state."""


def _retryable(exc: BaseException) -> bool:
    """Errors after which the transaction certainly rolled back and a retry is safe."""
    if isinstance(exc, Conflict | IntegrityError):
        return True
    if isinstance(exc, OperationalError) and "database is locked" in str(exc):
        return True  # SQLite: the busy timeout ran out
    if isinstance(exc, DBAPIError):
        code = getattr(exc.orig, "sqlstate", None) or getattr(exc.orig, "pgcode", None)
        return code in ("40001", "40P01")  # serialization failure, deadlock
    return False


def _ref(row: Any) -> GameRef:
    return GameRef(row.id, row.chat_id, row.topic_id, row.status)


class Store(OutboxStore, DeadlineStore):
    """Games, their logs, outbox and deadlines, people and chat settings, in one database."""

    def __init__(
        self, db: Database, *, snapshot_every: int | None = 100, cache_size: int = 1000
    ) -> None:
        self.db = db
        self.people = People(db)
        self.chats = Chats(db)
        self.snapshot_every = snapshot_every
        self._cache = StateCache(cache_size)
        self.retries = 0  # collisions survived, for monitoring

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
        """Open a lobby in a chat topic; RuleError("game_exists") if one is not ended yet."""
        return await self._retrying(lambda: self._create(chat_id, topic_id, command, now, planner))

    async def execute(
        self, game_id: int, command: Command, now: datetime, planner: Planner | None = None
    ) -> Outcome:
        """Run a command on a game; RuleError propagates and nothing is written."""
        return await self._retrying(lambda: self._execute(game_id, command, now, planner))

    async def run_deadline(
        self, row: DeadlineRow, now: datetime, planner: Planner | None = None
    ) -> Outcome:
        """Run a claimed deadline's command, then mark the deadline complete."""
        outcome = await self.execute(row.game_id, row.engine_command(), now, planner)
        await self.complete_deadline(row)
        return outcome

    async def _create(
        self,
        chat_id: int,
        topic_id: int,
        command: OpenLobby,
        now: datetime,
        planner: Planner | None,
    ) -> Outcome:
        async with self.db.write() as conn:
            if await _open_game(conn, chat_id, topic_id) is not None:
                raise RuleError("game_exists")
            events = decide(None, command, now)
            after = _replay(events, None)
            values: dict[str, Any] = {"chat_id": chat_id, "topic_id": topic_id}
            values |= {"status": after.phase.value, "last_seq": len(events)}
            values |= {"created_at": now, "updated_at": now}
            try:
                query = insert(GameRecord).values(values).returning(GameRecord.id)
                game_id = (await conn.execute(query)).scalar_one()
            except IntegrityError:  # another writer opened one first (PostgreSQL)
                raise RuleError("game_exists") from None
            ref = GameRef(game_id, chat_id, topic_id, after.phase.value)
            await self._record(conn, ref, 0, None, events, after, now, planner)
        self._cache.put(game_id, len(events), after)
        return Outcome(game_id, events, after, 1)

    async def _execute(
        self, game_id: int, command: Command, now: datetime, planner: Planner | None
    ) -> Outcome:
        async with self.db.write() as conn:
            g = GameRecord
            row = (await conn.execute(self._lock_game(game_id))).first()
            if row is None:
                raise RuleError("no_game")
            before = await load_state(conn, game_id, row.last_seq, self._cache)
            events = decide(before, command, now)
            if before is not None and not events:
                return Outcome(game_id, [], before, row.last_seq + 1)
            after = _replay(events, before)
            new_seq = row.last_seq + len(events)
            values = dict(last_seq=new_seq, status=after.phase.value, updated_at=now)
            cas = update(g).where(g.id == game_id, g.last_seq == row.last_seq).values(values)
            if (await conn.execute(cas)).rowcount != 1:
                raise Conflict(game_id)
            ref = GameRef(game_id, row.chat_id, row.topic_id, after.phase.value)
            await self._record(conn, ref, row.last_seq, before, events, after, now, planner)
        self._cache.put(game_id, new_seq, after)
        return Outcome(game_id, events, after, row.last_seq + 1)

    def _lock_game(self, game_id: int) -> Any:
        """The game's row, locked until commit: writers of one game take turns."""
        return select(GameRecord).where(GameRecord.id == game_id).with_for_update()

    async def _record(
        self,
        conn: AsyncConnection,
        ref: GameRef,
        last_seq: int,
        before: Game | None,
        events: list[Event],
        after: Game,
        now: datetime,
        planner: Planner | None,
    ) -> None:
        """Everything a command writes besides the game row, in the caller's transaction."""
        first_seq = last_seq + 1
        await append_events(conn, ref.id, first_seq, events, now)
        if planner is not None:
            ctx = PlanContext(ref.id, ref.chat_id, ref.topic_id, before, events, after, first_seq)
            await insert_items(conn, planner(ctx), now, ref.id)
        await sync_deadlines(conn, ref.id, after, now)
        await sync_members(conn, ref.id, before, after)
        every = self.snapshot_every
        new_seq = last_seq + len(events)
        if every and new_seq // every > last_seq // every:
            await write_snapshot(conn, ref.id, new_seq, after, now)

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

    # --- questions -----------------------------------------------------------
    async def load(self, game_id: int) -> Game:
        """The game's current state; RuleError("no_game") if there is no such game."""
        async with self.db.read() as conn:
            query = select(GameRecord.last_seq).where(GameRecord.id == game_id)
            last_seq = (await conn.execute(query)).scalar_one_or_none()
            state = None
            if last_seq is not None:
                state = await load_state(conn, game_id, last_seq, self._cache)
        if state is None:
            raise RuleError("no_game")
        return state

    async def events(self, game_id: int) -> list[Event]:
        """The game's whole log, in order."""
        async with self.db.read() as conn:
            return await read_events(conn, game_id)

    async def game(self, game_id: int) -> GameRef | None:
        async with self.db.read() as conn:
            row = (await conn.execute(select(GameRecord).where(GameRecord.id == game_id))).first()
        return _ref(row) if row is not None else None

    async def game_for_chat(self, chat_id: int, topic_id: int) -> GameRef | None:
        """The chat topic's game that has not ended, if any."""
        async with self.db.read() as conn:
            row = await _open_game(conn, chat_id, topic_id)
        return _ref(row) if row is not None else None

    async def games_of_person(self, user_id: int) -> list[GameRef]:
        """Games not ended where the person is in the lobby or holds a seat, oldest first."""
        g, m = GameRecord, MemberRecord
        query = (
            select(g)
            .join(m, m.game_id == g.id)
            .where(m.user_id == user_id, g.status != ENDED)
            .order_by(g.id)
        )
        async with self.db.read() as conn:
            return [_ref(row) for row in (await conn.execute(query)).all()]


async def _open_game(conn: AsyncConnection, chat_id: int, topic_id: int) -> Any:
    g = GameRecord
    query = select(g).where(g.chat_id == chat_id, g.topic_id == topic_id, g.status != ENDED)
    return (await conn.execute(query)).first()


def _replay(events: list[Event], state: Game | None) -> Game:
    after = replay(events, state)
    if after is None:
        raise RuleError("no_game")
    return after
