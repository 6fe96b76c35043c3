"""Computer detectives: players the bot seats in empty chairs, at three levels
(engine/detectives/levels.py). Each decides from its own seat's notebook and the public
state alone, and plays by the same commands as people, through the engine: in the forum
format and at the classic table (the Liars and 2023 editions' own steps have none yet)."""

from __future__ import annotations

import random
from datetime import datetime

from engine import commands as cmd
from engine.detectives.forum import forum_move
from engine.detectives.levels import Level
from engine.detectives.table import table_move
from engine.events import Event
from engine.state import Game

__all__ = ["Level", "next_move"]


def next_move(
    level: Level, game: Game, events: list[Event], seat: int, rng: random.Random, now: datetime
) -> cmd.Command | None:
    """What the detective in `seat` does now (None: nothing until something changes).
    `events` is the game's whole record, of which it reads only what its seat was told."""
    if game.table is not None:
        return table_move(level, game, events, seat, rng)
    return forum_move(level, game, events, seat, rng, now)
