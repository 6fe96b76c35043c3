"""Notebooks worked out off the event loop and kept per game: a sheet is computed in a
worker thread once per game state (its event count) and asked again comes from memory;
the player's own marks are read fresh each time (another worker may have written them)."""

from __future__ import annotations

import asyncio
from collections import OrderedDict

from bot.notebook.sheet import Payload, sheet_of, with_marks
from engine.ids import Seat
from storage.service import Store

MAX_KEPT = 256  # sheets kept in memory (a few KB each)


class Notebooks:
    """Each seat's sheet, by (game, seat, events so far)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._kept: OrderedDict[tuple[int, Seat, int], Payload] = OrderedDict()
        self._working: dict[tuple[int, Seat], asyncio.Lock] = {}

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
