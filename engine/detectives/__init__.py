"""Computer detectives: players the bot seats in empty chairs, at three levels
(engine/computer.py). Each decides from its own seat's notebook and the public
state alone, and plays by the same commands as people, through the engine: in the forum
format and at the table of every edition (each format's play, engine/detectives/plays.py:
the classic turn, or an edition's own steps, engine/liars/detective.py,
engine/y2023/detective.py).

The engine keeps nothing between decisions: a caller deciding again and again in one game
hands in the seat's `Reading` (engine/detectives/mind.py), which it keeps, one per game and
seat, used by one decision at a time."""

from __future__ import annotations

import random
from collections.abc import Mapping
from datetime import datetime

from engine import commands as cmd
from engine.computer import Level, detective_level
from engine.deadlines import live_deadline
from engine.detectives.forum import forum_move
from engine.detectives.mind import Reading
from engine.detectives.plays import PLAYS, Play
from engine.detectives.table import table_move
from engine.events import Event
from engine.format import format_of
from engine.state import Game

__all__ = ["Level", "Reading", "cued_move", "moment_chance", "next_move"]


def next_move(
    level: Level,
    game: Game,
    events: list[Event],
    seat: int,
    rng: random.Random,
    now: datetime,
    reading: Reading | None = None,
    plays: Mapping[str, Play] = PLAYS,
) -> cmd.Command | None:
    """What the detective in `seat` does now (None: nothing until something changes).
    `events` is the game's whole record, of which it reads only what its seat was told;
    `reading`, the seat's reading of this game so far (None: read from the deal); `plays`,
    how it plays each table format (engine/detectives/plays.py)."""
    if format_of(game).plays_turns(game):
        return table_move(level, game, events, seat, rng, reading, plays)
    return forum_move(level, game, events, seat, rng, now, reading)


def cued_move(
    game: Game,
    events: list[Event],
    cue: cmd.DetectiveCue,
    now: datetime,
    reading: Reading | None = None,
) -> cmd.Command | None:
    """The move a detective's cue (its deadline) asks for now, from the game's whole record:
    None when the cue is stale or early, or the detective has nothing to do. The same record
    gives the same move (its randomness is drawn from the game's seed, the seat and the
    record's length); `reading`: the cued seat's reading of the game so far."""
    live = live_deadline(game, cue, now)
    if live is None:
        return None
    level = detective_level(live.players[cue.seat].user)
    if level is None:
        return None
    rng = moment_chance(live, events, cue.seat)
    return next_move(level, live, events, cue.seat, rng, now, reading)


def moment_chance(game: Game, events: list[Event], seat: int) -> random.Random:
    """A detective's randomness at this moment of the game: drawn from the game's seed, its
    seat and the record's length (the same record, the same move)."""
    return random.Random(f"{game.seed}:{seat}:{len(events)}")
