"""Notebooks worked out off the event loop and kept per game: a sheet is computed in a
worker thread once per content (`sheet_key`: the seat's facts, hand and table; a change
that tells the seat nothing new keeps it) and asked again comes from memory; the player's
own marks are read fresh each time (another worker may have written them).
The sheets a game's players have asked for here are worked out again as the game changes
(`warm`), in the background, so the next look finds them ready: at the forum's ten seats
a sheet with every cell's odds takes a second or more. Beside them, each computer
detective's reading of its seat's notebook (engine/detectives/mind.py `Reading`), read on
from one think to the next."""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections import OrderedDict
from collections.abc import AsyncIterator, Hashable
from contextlib import asynccontextmanager

from bot.notebook.sheet import Payload, sheet_key, sheet_of, with_marks
from engine.detectives import Reading
from engine.ids import Seat
from storage.service import Store

MAX_KEPT = 256  # sheets kept in memory, one per game and seat (a few KB each)
MAX_READINGS = 64  # detectives' readings kept (each holds its game's record and state)
MAX_WARM_GAMES = 64  # games whose asked-for sheets are worked out again as they change

log = logging.getLogger(__name__)


class Notebooks:
    """Each seat's sheet, by (game, seat) with what it was made of; each detective's
    reading, by (game, seat)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._kept: OrderedDict[tuple[int, Seat], tuple[Hashable, Payload]] = OrderedDict()
        # a lock per seat while its sheet is worked out or waited for, gone after
        self._working: weakref.WeakValueDictionary[tuple[int, Seat], asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )
        self._readings: OrderedDict[tuple[int, Seat], tuple[asyncio.Lock, Reading]] = OrderedDict()
        self._asked: OrderedDict[int, set[Seat]] = OrderedDict()  # game -> seats looked at
        self._warming: dict[int, asyncio.Task[None]] = {}
        self._changed: set[int] = set()  # games changed while their sheets were warmed
        self._one_game_at_a_time = asyncio.Semaphore(1)
        self._stopped = False

    @asynccontextmanager
    async def reading(self, game_id: int, seat: Seat) -> AsyncIterator[Reading]:
        """The computer detective's reading of its seat's notebook in the game, for one
        think at a time: a second think of the same seat waits for the first (a deadline
        whose lease ran out mid-think may be claimed again); other seats and games think
        meanwhile. The oldest readings are forgotten (a think that still holds one keeps it
        to the end; the next starts a new one from the deal)."""
        key = (game_id, seat)
        kept = self._readings.pop(key, None) or (asyncio.Lock(), Reading(seat))
        self._readings[key] = kept  # the newest last
        while len(self._readings) > MAX_READINGS:
            self._readings.popitem(last=False)
        lock, reading = kept
        async with lock:
            yield reading

    async def sheet(self, game_id: int, seat: Seat) -> Payload:
        """The seat's notebook now, with its own marks (one computation at a time per
        seat: a second ask waits for the first and takes its result). The seat's sheet is
        kept warm from now on (`warm`)."""
        if not self._stopped:
            seats = self._asked.pop(game_id, set())
            seats.add(seat)
            self._asked[game_id] = seats  # the newest last
            while len(self._asked) > MAX_WARM_GAMES:
                self._asked.popitem(last=False)
        sheet = await self._sheet(game_id, seat)
        own = await self.store.notebook_marks.of(game_id, seat)
        return with_marks(sheet, own)

    def warm(self, game_id: int) -> None:
        """The game changed: work out again, in the background, the sheets its players have
        asked for here (those the change told something new). One game's at a time; a
        change while they are worked out has them worked out once more, for the newest
        state."""
        if self._stopped or game_id not in self._asked:
            return
        running = self._warming.get(game_id)
        if running is not None and not running.done():
            self._changed.add(game_id)
            return
        task = asyncio.get_running_loop().create_task(self._warm(game_id))
        self._warming[game_id] = task
        task.add_done_callback(lambda done: self._done_warming(game_id, done))

    def stop(self) -> None:
        """No more warming: the sheets being worked out are let go (the worker is
        stopping; a look is worked out when asked, as ever)."""
        self._stopped = True
        self._asked.clear()
        self._changed.clear()
        for task in self._warming.values():
            task.cancel()

    async def warmed(self) -> None:
        """Wait until no sheet is being warmed (for tests, and a stopping worker)."""
        while running := [t for t in self._warming.values() if not t.done()]:
            await asyncio.wait(running)

    def _done_warming(self, game_id: int, task: asyncio.Task[None]) -> None:
        if self._warming.get(game_id) is task:
            del self._warming[game_id]

    async def _warm(self, game_id: int) -> None:
        try:
            again = True
            while again:
                async with self._one_game_at_a_time:
                    self._changed.discard(game_id)
                    for seat in sorted(self._asked.get(game_id, ())):
                        await self._sheet(game_id, seat)
                again = game_id in self._changed
        except Exception:  # the sheets are then worked out when asked, as before
            log.exception("notebooks of game %s: warming them failed", game_id)
        finally:
            self._changed.discard(game_id)

    async def _sheet(self, game_id: int, seat: Seat) -> Payload:
        """The seat's sheet for the game's current log (without its own marks), worked
        out again only when what it is made of changed."""
        lock = self._working.get((game_id, seat))
        if lock is None:
            lock = self._working[(game_id, seat)] = asyncio.Lock()
        async with lock:
            game = await self.store.load(game_id)
            events = await self.store.events(game_id)
            made_of = await asyncio.to_thread(sheet_key, game, events, seat)
            kept = self._kept.get((game_id, seat))
            if kept is not None and kept[0] == made_of:
                self._kept.move_to_end((game_id, seat))
                return kept[1]
            sheet = await asyncio.to_thread(sheet_of, game, events, seat)
            self._kept[(game_id, seat)] = (made_of, sheet)
            self._kept.move_to_end((game_id, seat))
            while len(self._kept) > MAX_KEPT:
                self._kept.popitem(last=False)
        return sheet
