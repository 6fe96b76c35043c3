"""Engine benchmark: commands decided per second, and replay of a full 8-player, 10-day game.

Run (from the repository root): .venv/bin/python -m bench.engine
Targets: >= 20,000 commands per second on one core; replay under 5 ms.
"""

from __future__ import annotations

import contextlib
import time
from datetime import datetime, timedelta

from engine import commands as cmd
from engine.cards import Category
from engine.deadlines import deadlines
from engine.decide import decide_and_apply
from engine.errors import RuleError
from engine.events import Event
from engine.evolve import replay
from engine.state import Game
from simulation.randomplay import START, RandomGame


def recorded_commands(games: int) -> list[tuple[cmd.Command, datetime]]:
    """Commands of random games (legal and refused ones), to decide again under a timer."""
    commands: list[tuple[cmd.Command, datetime]] = []
    for seed in range(games):
        game = RandomGame(seed=seed, players=3 + seed % 8)
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


def _timed(fn: object) -> float:
    start = time.perf_counter()
    fn()  # type: ignore[operator]
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
