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

from typing import Any

from engine.events import Event
from engine.state import Game
from storage.cache import StateCache
from storage.chats import Chats
from storage.commands import Commands
from storage.database import Database
from storage.deadlines import Deadlines
from storage.freshness import Copies, Freshness
from storage.games import GameRef, find_game, find_open_game, games_of_person
from storage.log import read_events
from storage.migrate import upgrade_database
from storage.outbox import Outbox
from storage.outcome import Outcome
from storage.people import People
from storage.updates import HandledUpdates
from storage.workers import Workers

__all__ = ["Outcome", "Store"]
OPEN_GAME_SECONDS = 10.0


class Store(Commands):
    """Games, their logs, outbox and deadlines, people and chat settings, in one database."""

    def __init__(
        self, db: Database, *, snapshot_every: int | None = 100, cache_size: int = 1000
    ) -> None:
        self.db = db
        self.freshness = Freshness()  # the bot marks itself alone at start (bot.app)
        self.outbox = Outbox(db)
        self.deadlines = Deadlines(db)
        self.people = People(db, freshness=self.freshness)
        self.chats = Chats(db, self.freshness)
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
        self._open_games: Copies[tuple[int, int], GameRef] = Copies(
            self.freshness, OPEN_GAME_SECONDS
        )
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

    # --- questions ------------------------------------------------------------
    async def events(self, game_id: int) -> list[Event]:
        """The game's whole log, in order."""
        return await self.db.run_read(read_events, game_id)

    async def game(self, game_id: int) -> GameRef | None:
        return await self.db.run_read(find_game, game_id)

    async def game_for_chat(self, chat_id: int, topic_id: int) -> GameRef | None:
        """The chat topic's game that has not ended, if any.

        Asked for nearly every update, so kept per process: a game this process opened,
        moved or ended is known at once; one opened or ended by another worker within
        OPEN_GAME_SECONDS (its `status` may lag: the state is what counts). A worker alone
        keeps it (storage.freshness)."""
        place = (chat_id, topic_id)
        found = self._open_games.get(place)
        if found is not None:
            return found
        ref = await self.db.run_read(find_open_game, chat_id, topic_id)
        if ref is not None:
            self._open_games.put(place, ref)
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
