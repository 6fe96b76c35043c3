"""The service: Store, the one object the bot and the scheduler use. Store.execute runs a
command on a game and Store.create_game opens one (storage.commands: decided once per
attempt, written in ONE transaction or statement: the events, the outbox rows the planner
renders for them, the re-synced deadline rows, the members and the game's status); Store
also answers questions about games and holds the outbox, the deadline rows, people, chats,
workers and handled updates (see storage/__init__.py).
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime
from typing import Any

from engine import REGISTRY
from engine.commands import Command, OpenLobby
from engine.events import Event, GameEnded
from engine.registry import Registry
from engine.state import Game
from storage.achievements import Achievements
from storage.chats import Chats
from storage.commands import Commands
from storage.database import Database
from storage.deadlines import Deadlines
from storage.freshness import Freshness
from storage.games import (
    GameRef,
    OpenGames,
    ended_games,
    find_game,
    find_open_game,
    games_of_person,
)
from storage.log import read_events
from storage.messages_owed import Planner
from storage.migrate import upgrade_database
from storage.notebooks import NotebookMarks
from storage.outbox import Outbox
from storage.outcome import Outcome
from storage.owed import OwedMessages
from storage.people import People
from storage.pins import IndexPins
from storage.ratings import Ratings
from storage.seasons import Seasons
from storage.updates import HandledUpdates, UpdateMark
from storage.workers import Workers

__all__ = ["Outcome", "Store"]
log = logging.getLogger(__name__)
OPEN_GAME_SECONDS = 10.0


class Store:
    """Games, their logs, outbox and deadlines, people and chat settings, in one database."""

    def __init__(
        self,
        db: Database,
        *,
        snapshot_every: int | None = 100,
        cache_size: int = 1000,
        registry: Registry = REGISTRY,
    ) -> None:
        self.db = db
        self.registry = registry  # the formats the games may be in (the shipped ones)
        self.freshness = Freshness()  # the bot marks itself alone at start (bot.app)
        self.outbox = Outbox(db)
        self.owed = OwedMessages(db)  # outbox rows whose text is composed after the commit
        self.deadlines = Deadlines(db)
        self.people = People(db, freshness=self.freshness)
        self.notebook_marks = NotebookMarks(db)
        self.index_pins = IndexPins(db)
        self.chats = Chats(db, self.freshness, registry.specs)
        self.workers = Workers(db)
        self.updates = HandledUpdates(db)
        self.ratings = Ratings(db)
        self.seasons = Seasons(db)
        self.taking_in: set[asyncio.Task[None]] = set()  # ratings taken in after game ends
        self.achievements = Achievements(db)  # earned as the ratings take ended games in
        self.open_games = OpenGames(self.freshness, OPEN_GAME_SECONDS)
        self.chats.on_move = self.open_games.clear
        self.commands = Commands(
            db,
            self.chats,
            self.open_games,
            snapshot_every=snapshot_every,
            cache_size=cache_size,
            registry=registry,
        )

    @property
    def claim_for(self) -> str | None:
        """The worker whose sender takes a command's messages straight from its Outcome
        (claimed by the command's write); None: nobody here does."""
        return self.commands.claim_for

    @claim_for.setter
    def claim_for(self, worker: str | None) -> None:
        self.commands.claim_for = worker

    @property
    def retries(self) -> int:
        """Writes retried after a collision or a lost connection (for monitoring)."""
        return self.commands.retries

    @property
    def optimistic_misses(self) -> int:
        """Optimistic attempts that found the game changed by another writer."""
        return self.commands.optimistic_misses

    @classmethod
    async def open(
        cls,
        url: str | None = None,
        *,
        migrate: bool = True,
        snapshot_every: int | None = 100,
        cache_size: int = 1000,
        registry: Registry = REGISTRY,
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
        return cls(db, snapshot_every=snapshot_every, cache_size=cache_size, registry=registry)

    async def close(self) -> None:
        await self.ratings_taken_in()
        await self.db.dispose()

    def forget_cached_states(self) -> None:
        """Drop this process's cached states (they are never stale; this only frees memory)."""
        self.commands.cache.clear()

    # --- commands ---------------------------------------------------------------
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
        step = update.next_step() if update is not None else None
        return await self.commands.create_game(chat_id, topic_id, command, now, planner, step)

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
        outcome = await self.commands.execute(game_id, command, now, planner, step)
        if any(isinstance(event, GameEnded) for event in outcome.events):
            task = asyncio.get_running_loop().create_task(self._rate_ended())
            self.taking_in.add(task)
            task.add_done_callback(self.taking_in.discard)
        return outcome

    async def ratings_taken_in(self) -> None:
        """Wait until the games ended so far by this process's commands are taken in."""
        while self.taking_in:
            await asyncio.gather(*self.taking_in)

    async def _rate_ended(self) -> None:
        """The ratings take in the game just ended, beside the command rather than in its
        way (its messages, the solution and the winner, do not wait for them); should that
        fail, the game waits for the next game's end or the next read of its leaderboard
        or of its players' records (the command stands)."""
        try:
            await self.ratings.rate_pending()
        except Exception:
            log.exception("ratings: the ended games wait for the next try")

    async def load(self, game_id: int) -> Game:
        """The game's current state; a NoGame rule error if there is no such game."""
        return await self.commands.load(game_id)

    # --- questions ------------------------------------------------------------
    async def events(self, game_id: int) -> list[Event]:
        """The game's whole log, in order."""
        return await self.db.run_read(read_events, game_id, 0, None, self.registry)

    async def ended_games(self, chat_id: int, topic_id: int, limit: int = 500) -> list[GameRef]:
        """The chat topic's ended games (the latest `limit`), oldest first."""
        return await self.db.run_read(ended_games, chat_id, topic_id, limit)

    async def game(self, game_id: int) -> GameRef | None:
        return await self.db.run_read(find_game, game_id)

    async def game_for_chat(self, chat_id: int, topic_id: int) -> GameRef | None:
        """The chat topic's game that has not ended, if any.

        Asked for nearly every update, so kept per process: a game this process opened,
        moved or ended is known at once; one opened or ended by another worker within
        OPEN_GAME_SECONDS (its `status` may lag: the state is what counts). A worker alone
        keeps it (storage.freshness)."""
        found = self.open_games.get(chat_id, topic_id)
        if found is not None:
            return found
        ref = await self.db.run_read(find_open_game, chat_id, topic_id)
        if ref is not None:
            self.open_games.put(ref)
        return ref

    async def recent_state(self, game_id: int) -> Game:
        """The game's state as this process last knew it (no read when it knows one): for
        reading a command's arguments, which the command's own transaction checks again."""
        known = self.commands.cache.get(game_id)
        return known.state if known is not None else await self.load(game_id)

    async def games_of_person(self, user_id: int) -> list[GameRef]:
        """Games not ended where the person is in the lobby or holds a seat, oldest first."""
        return await self.db.run_read(games_of_person, user_id)
