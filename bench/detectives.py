"""Computer detectives against each other: games of six, two detectives of each level in
seats shuffled per game, played through the engine (simulation/detectives.py), in the forum
format or at the table of any edition (classic, y2023, liars, or another of the registry's).

    python -m bench.detectives [--games 1000] [--players 6] [--format forum|classic|y2023|liars]
                               [--count compiled|python]

Prints each level's share of the games won with a 95% Wilson interval (two seats each: an
even share is a third), how the games ended, moves the engine refused (none expected),
turns the clock ended (the detectives should play every turn to its end themselves), and
the time of one decision per level (p50 / p95 / max; target: the inspector's p95 ≤ 200 ms
in a six-player game): over every time a detective was asked (most often it has nothing
to do), then over the moves it made.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections import Counter

from bench.counting import add_count_option, use_count
from engine import REGISTRY
from engine import events as ev
from engine.detectives import Level
from engine.settings import Settings
from engine.table.state import TurnEnd
from simulation.detectives import LEVELS, DetectiveGame, seats


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 0.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)  # no "-0.0" from rounding


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--format", choices=REGISTRY.keys, default="forum")
    add_count_option(parser)
    args = parser.parse_args()
    use_count(args.count)
    won: Counter[Level] = Counter()
    seated: Counter[Level] = Counter()
    endings: Counter[str] = Counter()
    refused = 0
    timed_out = 0
    timings: dict[Level, list[float]] = {level: [] for level in LEVELS}
    move_timings: dict[Level, list[float]] = {level: [] for level in LEVELS}
    started = time.perf_counter()
    for seed in range(args.games):
        settings = Settings(format=args.format)
        game = DetectiveGame(seed=seed, levels=seats(seed, args.players), settings=settings)
        final = game.play()
        seated.update(game.levels)
        endings[str(final.end_reason)] += 1
        refused += len(game.refused)
        timed_out += sum(
            isinstance(e, ev.TurnEnded) and e.reason is TurnEnd.TIMED_OUT for e in game.events
        )
        winner = game.winner_level()
        if winner is not None:
            won[winner] += 1
        for level, seconds in game.timings:
            timings[level].append(seconds)
        for level, seconds in game.move_timings:
            move_timings[level].append(seconds)
    elapsed = time.perf_counter() - started
    print(f"{args.games} {args.format} games of {args.players} detectives in {elapsed:.0f} s")
    for level in LEVELS:
        share = seated[level] / (args.games * args.players)
        low, high = wilson(won[level], args.games)
        print(
            f"  {level.value:9} won {won[level]:5} of {args.games} games"
            f" ({100 * won[level] / args.games:.1f}%, 95% CI {100 * low:.1f}–{100 * high:.1f}%;"
            f" {100 * share:.0f}% of the seats)"
        )
    print(
        f"  endings: {dict(endings)}; moves refused by the engine: {refused};"
        f" turns timed out: {timed_out}"
    )
    for kind, counted, by_level in (
        ("decision", "decisions", timings),
        ("move", "moves made", move_timings),
    ):
        for level in LEVELS:
            times = sorted(by_level[level])
            if times:
                p95 = times[int(0.95 * (len(times) - 1))]
                print(
                    f"  {level.value:9} {kind} p50 {1000 * statistics.median(times):.1f} ms,"
                    f" p95 {1000 * p95:.1f} ms, max {1000 * times[-1]:.1f} ms"
                    f" ({len(times)} {counted})"
                )


if __name__ == "__main__":
    main()
