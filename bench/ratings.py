"""Ratings over a chat's many games: they are played through the engine (people's random
games of the forum and at the table; every fifth one person with three computer detectives,
the formats in turn: simulation/rated_games.py), stored as ended games in a fresh SQLite
file (or the database at --url) and taken in ten at a time, as games end.

    python -m bench.ratings [--games 1000] [--every 5] [--url URL]

Prints whether the recompute from the logs equals the stored ratings (it must), each
detective level's rating per family (the Inspector above the Sleuth above the Novice), the
cost of taking a game in, and the time of what /top and /me read (p50 / p95; target: p95
≤ 100 ms with 1,000 games in the chat and a person with 500 or more)."""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import timedelta
from pathlib import Path

from engine.computer import Level, detective_user
from engine.standings import COMPUTERS, FORUM, TABLE
from simulation.randomplay import START
from simulation.rated_games import archive, chat_games
from storage.rating_math import EVERY_CHAT, RatingKey
from storage.service import Store

CHAT = -100_000_042
RUNS = 200  # of each read, timed
LEVELS = (Level.INSPECTOR, Level.SLEUTH, Level.NOVICE)


def _p(times: list[float], q: float) -> float:
    ordered = sorted(times)
    return 1000 * ordered[int(q * (len(ordered) - 1))]


async def _timed(runs: int, read: Callable[[], Awaitable[None]]) -> list[float]:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        await read()
        times.append(time.perf_counter() - started)
    return times


async def bench(games: int, every: int, url: str) -> None:
    store = await Store.open(url)
    try:
        started = time.perf_counter()
        logs = list(chat_games(games, detectives_every=every))
        played = time.perf_counter() - started
        rating = 0.0
        for number, events in enumerate(logs):
            await archive(store, CHAT, events, START + timedelta(hours=number))
            if number % 10 == 9 or number == games - 1:
                started = time.perf_counter()
                await store.ratings.rate_pending()
                rating += time.perf_counter() - started
        each = 1000 * rating / games
        print(f"{games} games played in {played:.0f} s; taken in at {each:.1f} ms a game")
        stored = await store.ratings.stored()
        started = time.perf_counter()
        computed = await store.ratings.computed()
        same = "equal to" if computed == stored else "DIFFERENT FROM"
        print(
            f"recomputed from the logs in {time.perf_counter() - started:.1f} s:"
            f" {same} the {len(stored)} stored ratings"
        )
        for family in (FORUM, TABLE):
            keys = [
                RatingKey(EVERY_CHAT, family, COMPUTERS, detective_user(0, lv)) for lv in LEVELS
            ]
            found = [stored.get(key) for key in keys]
            shown = ", ".join(
                f"{lv.value} {r.mu:.1f} ± {r.sigma:.1f} ({r.games} games, {r.wins} won)"
                for lv, r in zip(LEVELS, found, strict=True)
                if r is not None
            )
            ordered = all(found) and [r.conservative for r in found if r] == sorted(
                (r.conservative for r in found if r), reverse=True
            )
            print(f"  {family}: {shown}; {'in order' if ordered else 'NOT IN ORDER'}")
        ratings = store.ratings
        busiest = max(
            (k for k in stored if k.chat_id == EVERY_CHAT and k.subject > 0),
            key=lambda k: stored[k].games,
        )

        async def top() -> None:
            await ratings.rate_pending()
            for family in (FORUM, TABLE):
                await ratings.leaderboard(CHAT, family)

        async def me() -> None:
            await ratings.rate_pending()
            await ratings.of_person(busiest.subject)
            await ratings.choices(busiest.subject)

        for name, read in (("/top", top), ("/me", me)):
            times = await _timed(RUNS, read)
            print(
                f"  {name}: p50 {1000 * statistics.median(times):.1f} ms,"
                f" p95 {_p(times, 0.95):.1f} ms ({RUNS} reads)"
            )
        print(f"  (/me for a person with {stored[busiest].games} rated {busiest.family} games)")
    finally:
        await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--every", type=int, default=5, help="one game in N with detectives")
    parser.add_argument("--url", help="a database (default: a fresh SQLite file)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        url = args.url or f"sqlite:///{Path(folder) / 'ratings.db'}"
        asyncio.run(bench(args.games, args.every, url))


if __name__ == "__main__":
    main()
