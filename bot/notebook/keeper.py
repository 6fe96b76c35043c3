"""Notebooks worked out off the event loop and kept per game: a sheet is computed in a
worker thread once per game state (its event count) and asked again comes from memory;
the player's own marks are read fresh each time (another worker may have written them).
Beside them, each computer detective's reading of its seat's notebook (engine/detectives
/mind.py `Reading`), read on from one think to the next."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from bot.notebook.sheet import Payload, sheet_of, with_marks
from engine.detectives import Reading
from engine.ids import Seat
from storage.service import Store

MAX_KEPT = 256  # sheets kept in memory (a few KB each)
MAX_READINGS = 64  # detectives' readings kept (each holds its game's record and state)


class Notebooks:
    """Each seat's sheet, by (game, seat, events so far); each detective's reading, by
    (game, seat)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._kept: OrderedDict[tuple[int, Seat, int], Payload] = OrderedDict()
        self._working: dict[tuple[int, Seat], asyncio.Lock] = {}
        self._readings: OrderedDict[tuple[int, Seat], tuple[asyncio.Lock, Reading]] = OrderedDict()

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
        seat: a second ask waits for the first and takes its result)."""
        lock = self._working.setdefault((game_id, seat), asyncio.Lock())
        async with lock:
            game = await self.store.load(game_id)
            events = await self.store.events(game_id)
            key = (game_id, seat, len(events))
            sheet = self._kept.get(key)
            if sheet is None:
                sheet = await asyncio.to_thread(sheet_of, game, events, seat)
                self._kept[key] = sheet
                while len(self._kept) > MAX_KEPT:
                    self._kept.popitem(last=False)
            else:
                self._kept.move_to_end(key)
        own = await self.store.notebook_marks.of(game_id, seat)
        return with_marks(sheet, own)
