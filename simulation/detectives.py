"""Games played by computer detectives alone (the forum format, or the table of any
edition: the classic, the 2023, the Liars), through the engine, under the game's own
clock: every seat's move in turn (a minute apart), and when nobody has one, the clock runs
to the next deadline. For benchmarks and tests."""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from engine import REGISTRY
from engine import commands as cmd
from engine.deadlines import deadlines
from engine.decide import decide_and_apply
from engine.detectives import Level, Reading, moment_chance, next_move
from engine.detectives.plays import PLAYS, Play
from engine.errors import RuleError
from engine.events import Event
from engine.format import format_of
from engine.registry import Registry
from engine.settings import Settings
from engine.state import Game, Phase
from simulation.randomplay import START

MAX_DAYS = 60  # a forum game still open then is ended by its admin
MAX_TURNS = 600  # ... and a table game
LEVELS = (Level.NOVICE, Level.SLEUTH, Level.INSPECTOR)


def seats(seed: int, players: int) -> tuple[Level, ...]:
    """The levels round the table, shuffled by the game's seed (each level as often)."""
    levels = [LEVELS[i % len(LEVELS)] for i in range(players)]
    random.Random(seed).shuffle(levels)
    return tuple(levels)


@dataclass
class DetectiveGame:
    """One game of detectives, `levels[i]` in seat i; records every command and event.
    `refused` counts the moves the engine refused (a detective should make none);
    `readings`, each seat's reading of the game (engine/detectives/mind.py), read on;
    `plays`, how they play each table format (engine/detectives/plays.py)."""

    seed: int
    levels: tuple[Level, ...]
    settings: Settings = field(default_factory=Settings)
    now: datetime = START
    state: Game | None = None
    events: list[Event] = field(default_factory=list)
    moves: list[tuple[int, int, cmd.Command]] = field(default_factory=list)  # seat, at, move
    timings: list[tuple[Level, float]] = field(default_factory=list)  # seconds per decision
    move_timings: list[tuple[Level, float]] = field(default_factory=list)  # ... that moved
    refused: list[tuple[int, cmd.Command, str]] = field(default_factory=list)
    readings: dict[int, Reading] = field(default_factory=dict)
    plays: Mapping[str, Play] = field(default_factory=lambda: PLAYS)
    registry: Registry = REGISTRY  # the formats it may be played in

    @property
    def game(self) -> Game:
        assert self.state is not None
        return self.state

    def _run(self, command: cmd.Command) -> None:
        decision = decide_and_apply(self.state, command, self.now, self.registry)
        self.state = decision.after
        self.events.extend(decision.events)

    def setup(self) -> None:
        self._run(cmd.OpenLobby(actor=1, seed=self.seed, settings=self.settings))
        for user in range(2, len(self.levels) + 1):
            self._run(cmd.JoinLobby(actor=user))
        self._run(cmd.StartGame(actor=1))

    def round(self) -> bool:
        """Each seat's move, if it has one; whether anyone moved."""
        moved = False
        for seat, level in enumerate(self.levels):
            if self.game.phase is not Phase.RUNNING:
                break
            started = time.perf_counter()
            rng = moment_chance(self.game, self.events, seat)
            reading = self.readings.setdefault(seat, Reading(seat))
            move = next_move(
                level, self.game, self.events, seat, rng, self.now, reading, self.plays
            )
            seconds = time.perf_counter() - started
            self.timings.append((level, seconds))
            if move is None:
                continue
            self.move_timings.append((level, seconds))
            self.moves.append((seat, len(self.events), move))
            try:
                self._run(move)
            except RuleError as error:
                self.refused.append((seat, move, error.code))
                continue
            moved = True
            self.now += timedelta(minutes=1)
        return moved

    def tick(self) -> None:
        """The clock to the next deadline, which runs."""
        due = deadlines(self.state)
        if not due:
            raise RuntimeError(f"game {self.seed} waits for nothing")
        self.now = max(self.now, due[0].at)
        self._run(due[0].command)

    def play(self) -> Game:
        """To the end (an admin ends a game still open after MAX_DAYS days)."""
        self.setup()
        while self.game.phase is Phase.RUNNING:
            found = format_of(self.game)
            turns = not found.has_days and found.moment(self.game) > MAX_TURNS
            if self.game.day > MAX_DAYS or turns:
                self._run(cmd.EndGame(actor=1, actor_is_admin=True))
                break
            if not self.round():
                self.tick()
        return self.game

    def winner_level(self) -> Level | None:
        winner = self.game.winner
        return None if winner is None else self.levels[winner]
