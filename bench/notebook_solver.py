"""The notebook solver's time per update: simulated games of six players (the forum, the
classic table) and of three and four players at the table, each as one player's stream
of observations (bench/notebook_games.py), solved after every update for every cell's
odds and for the forced cells alone.

Run (from the repository root): .venv/bin/python -m bench.notebook_solver [games]
Target: p95 <= 100 ms per update for every cell's odds of a six-player game, one core.
Then bigger forum games, eight and ten players: the count's states grow with the seats
whose room is open (about 4^9 at ten), so their odds take up to seconds; their forced
cells come from a search and stay quick.
"""

from __future__ import annotations

import gc
import sys
import time

from bench.notebook_games import BIG_FORUM, SETUPS, Setup, simulate
from engine.notebook.solve import solve

GAMES = 20
ODDS_UP_TO = 8  # players; the count takes seconds for ten (see the module's note)


def times(setup: Setup, games: int, odds: bool) -> list[float]:
    """Seconds per update over the games' updates (deterministic seeds), sorted."""
    found: list[float] = []
    gc.disable()  # a collection is not the update's cost
    try:
        for seed in range(games):
            for case in simulate(setup, seed).cases:
                start = time.perf_counter()
                solve(case, odds=odds)
                found.append(time.perf_counter() - start)
    finally:
        gc.enable()
    return sorted(found)


def line(label: str, found: list[float]) -> str:
    p50 = found[len(found) // 2]
    p95 = found[min(len(found) - 1, len(found) * 95 // 100)]
    return (
        f"  {label:<7} p50 {p50 * 1000:7.2f} ms   p95 {p95 * 1000:7.2f} ms"
        f"   max {found[-1] * 1000:8.2f} ms   ({len(found)} updates)"
    )


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else GAMES
    print(f"notebook solver, time per update over {games} games per setup (one core)")
    for setup in SETUPS:
        print(f"{setup.name}, {setup.suggestions} suggestions:")
        print(line("odds", times(setup, games, odds=True)))
        print(line("forced", times(setup, games, odds=False)))
    print("(target: odds p95 <= 100 ms for six players)")
    for setup in BIG_FORUM:
        print(f"{setup.name}, {setup.suggestions} suggestions:")
        if len(setup.hands) <= ODDS_UP_TO:
            print(line("odds", times(setup, games, odds=True)))
        print(line("forced", times(setup, games, odds=False)))


if __name__ == "__main__":
    main()
