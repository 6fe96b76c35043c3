"""States this process already knows, so a command does not replay its game's log.

A known state is tagged with the seq it follows; events never change once committed, so
it can be old but never wrong. A state this process wrote itself also keeps the deadline
rows it wrote: while the game's last_seq is still that seq, those are exactly the rows in
the database, so the next command can write just the difference, and can decide on the
state before reading anything (the game row's compare-and-set then proves it current).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime

from engine.state import Game


@dataclass(frozen=True)
class Known:
    """A game's state after event `seq`, and where the game lives."""

    game_id: int
    seq: int
    state: Game
    chat_id: int
    topic_id: int
    deadlines: dict[str, tuple[datetime, str]] | None = None  # as written here, if so

    @property
    def written_here(self) -> bool:
        return self.deadlines is not None


class StateCache:
    """The latest known state of recently used games (a bounded LRU)."""

    def __init__(self, size: int = 1000) -> None:
        self.size = size
        self._known: OrderedDict[int, Known] = OrderedDict()
        self._lock = threading.Lock()  # SQLite work runs in worker threads

    def get(self, game_id: int) -> Known | None:
        with self._lock:
            found = self._known.get(game_id)
            if found is not None:
                self._known.move_to_end(game_id)
            return found

    def put(self, known: Known) -> None:
        """Keep the newer state; at the same seq, the one written here."""
        with self._lock:
            old = self._known.get(known.game_id)
            if old is not None and (old.seq, old.written_here) > (known.seq, known.written_here):
                return
            self._known[known.game_id] = known
            self._known.move_to_end(known.game_id)
            while len(self._known) > self.size:
                self._known.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._known.clear()
