"""Engine benchmark: commands decided per second, replay of a full 8-player, 10-day game,
classic (table) game commands per second, and the time to compute a table-mode turn's
places on the classic board.

Run (from the repository root): .venv/bin/python -m bench.engine
Targets: >= 20,000 commands per second on one core; replay under 5 ms; classic commands
>= 10,000 per second; a turn's places under 2 ms.
"""

from __future__ import annotations

import contextlib
import gc
import random
import time
from collections.abc import Callable
from datetime import datetime, timedelta

from engine import commands as cmd
from engine.board import CLASSIC, Place, reachable, towards
from engine.cards import Category
from engine.deadlines import deadlines
from engine.decide import decide_and_apply
from engine.errors import RuleError
from engine.events import Event
from engine.evolve import replay
from engine.state import Game
from simulation.randomplay import START, RandomGame
from simulation.tableplay import RandomTable


def recorded_commands(games: int) -> list[tuple[cmd.Command, datetime]]:
    """Commands of random games (legal and refused ones), to decide again under a timer."""
    commands: list[tuple[cmd.Command, datetime]] = []
    for seed in range(games):
        game = RandomGame(seed=seed, players=3 + seed % 8)
        game.play()
        commands.extend(game.commands)
    return commands


def recorded_table_commands(games: int) -> list[tuple[cmd.Command, datetime]]:
    """Commands of random classic games of 3 to 6 players (legal and refused ones)."""
    commands: list[tuple[cmd.Command, datetime]] = []
    for seed in range(games):
        game = RandomTable(seed=seed, players=3 + seed % 4)
        game.play()
        commands.extend(game.commands)
    return commands


def decide_all(commands: list[tuple[cmd.Command, datetime]]) -> int:
    """Decide and apply every command in order; a new game begins at each OpenLobby."""
    state: Game | None = None
    for command, now in commands:
        if isinstance(command, cmd.OpenLobby):
            state = None
        with contextlib.suppress(RuleError):  # a refused command changes nothing
            state = decide_and_apply(state, command, now).after
    return len(commands)


def full_game(players: int = 8, days: int = 10) -> list[Event]:
    """Every player makes every suggestion of every day; every target answers."""
    events: list[Event] = []
    state: Game | None = None
    now = START

    def run(command: cmd.Command) -> None:
        nonlocal state
        decision = decide_and_apply(state, command, now)
        state = decision.after
        events.extend(decision.events)

    run(cmd.OpenLobby(actor=1, seed=2026))
    for user in range(2, players + 1):
        run(cmd.JoinLobby(actor=user))
    run(cmd.StartGame(actor=1))
    assert state is not None
    for _ in range(days):
        for player in state.players:
            for k in range(3):
                target = state.players[(player.seat + 1 + k) % players]
                run(
                    cmd.MakeSuggestion(
                        actor=player.user,
                        target=target.user,
                        suspect=state.in_play(Category.SUSPECT)[k],
                        weapon=state.in_play(Category.WEAPON)[k + 1],
                        place=state.in_play(Category.PLACE)[k + 2],
                    )
                )
                now += timedelta(minutes=5)
        for s in state.pending_answers():
            holder = state.players[s.target]
            card = next(c for c in s.cards if c in holder.hand)
            run(cmd.Refute(actor=holder.user, suggestion=s.id, card=card))
        day_end = next(d for d in deadlines(state) if isinstance(d.command, cmd.EndDay))
        now = day_end.at
        run(day_end.command)
    return events


def turn_places(origin: Place, roll: int, blocked: frozenset[tuple[int, int]]) -> int:
    """What a turn offers after a roll: the places in reach, and for each room out of
    reach the square towards it."""
    reach = reachable(CLASSIC, origin, roll, blocked)
    offers = len(reach.rooms)
    for room in CLASSIC.rooms:
        if room not in reach.rooms:
            offers += towards(CLASSIC, origin, roll, blocked, room, reach=reach) is not None
    return offers


def turn_places_times(samples: int = 5000, seed: int = 12) -> tuple[list[float], list[float]]:
    """Seconds per turn's places, over random positions of six tokens and 2-dice rolls:
    wall-clock times, and this thread's CPU times (which leave out the moments another
    process had the core), each sorted."""
    rng = random.Random(seed)
    squares = sorted(CLASSIC.corridor)
    turn_places("kitchen", 12, frozenset())  # warm the per-room distance tables
    wall: list[float] = []
    cpu: list[float] = []
    gc.disable()  # as timeit does: a collection is not the move's cost
    for _ in range(samples):
        places: list[Place] = [
            rng.choice(squares) if rng.random() < 0.6 else rng.choice(CLASSIC.rooms)
            for _ in range(6)
        ]
        blocked = frozenset(p for p in places[1:] if isinstance(p, tuple)) - {places[0]}
        roll = rng.randint(1, 6) + rng.randint(1, 6)
        start, start_cpu = time.perf_counter(), time.thread_time()
        turn_places(places[0], roll, blocked)
        cpu.append(time.thread_time() - start_cpu)
        wall.append(time.perf_counter() - start)
    gc.enable()
    return sorted(wall), sorted(cpu)


def main() -> None:
    commands = recorded_commands(200)
    best = min(_timed(lambda: decide_all(commands)) for _ in range(3))
    print(f"commands decided: {len(commands)} in {best * 1000:.0f} ms")
    print(f"commands per second: {len(commands) / best:,.0f} (target >= 20,000)")
    events = full_game()
    runs = [_timed(lambda: replay(events)) for _ in range(50)]
    print(f"full 8-player 10-day game: {len(events)} events")
    print(f"replay: best {min(runs) * 1000:.2f} ms, median {sorted(runs)[25] * 1000:.2f} ms")
    print("(target: replay under 5 ms)")
    table = recorded_table_commands(200)
    best = min(_timed(lambda: decide_all(table)) for _ in range(3))
    print(f"classic commands decided: {len(table)} in {best * 1000:.0f} ms")
    print(f"classic commands per second: {len(table) / best:,.0f} (target >= 10,000)")
    wall, cpu = turn_places_times()
    print(f"classic board, a turn's places ({len(wall)} random positions and rolls):")
    for label, times in (("wall clock", wall), ("CPU time", cpu)):
        median, p99 = times[len(times) // 2], times[len(times) * 99 // 100]
        print(f"  {label}: median {median * 1000:.3f} ms, p99 {p99 * 1000:.3f} ms (target < 2 ms)")


def _timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
