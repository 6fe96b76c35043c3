"""Ratings over a chat's many games: they are played through the engine (people's random
games of the forum and at the table; every fifth one person with three computer detectives,
the formats in turn: simulation/rated_games.py), stored as ended games in a fresh SQLite
file (or the database at --url) and taken in ten at a time, as games end.

    python -m bench.ratings [--games 1000] [--every 5] [--url URL] [--runs 200] [--reads-only]
        [--other-games 0] [--ends 20]

Prints whether the recompute from the logs equals the stored ratings (it must), each
detective level's rating per family (the Inspector above the Sleuth above the Novice), the
cost of taking a game in, and the time of what /top and /me read in storage (p50 / p95).
Then /top and /me end to end (bench.ratings_bot; `--reads-only` leaves it out): the real
bot in this process against the fake Bot API, on that database, each command from the
update sent to the answer received, one at a time (p50 / p95 / max over `--runs`; target:
p95 ≤ 100 ms with 1,000 games in the chat, /me for a person with 500 or more). User 1 asks
both: every simulated game seats them, so theirs is the busiest record. `--other-games N`
adds N ended games of other chats before the reads: what /top and /me cost must not grow
with them. Last, `--ends` forum games (20) played through the store in chats of their own:
the command that ends each, and the ratings' take-in beside it."""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import timedelta
from pathlib import Path

from sqlalchemy import func, insert, select
from sqlalchemy.engine import Connection

from bench.ratings_bot import TOKEN, Club, club, timed
from engine import commands as cmd
from engine.computer import Level, detective_user
from engine.errors import RuleError
from engine.events import GameEnded
from engine.standings import COMPUTERS, FORUM, TABLE
from fakebot import FakeTelegram
from simulation.randomplay import START
from simulation.rated_games import PeopleGame, archive, chat_games
from storage.games import ENDED
from storage.models import GameRecord
from storage.rating_math import EVERY_CHAT, RatingKey
from storage.rating_models import RatedGameRecord
from storage.service import Store

RUNS = 200  # of each read, timed
ASKER = 1  # who asks /top and /me: seated in every simulated game
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


def _figures(name: str, times: list[float], what: str) -> str:
    return (
        f"  {name}: p50 {1000 * statistics.median(times):.1f} ms,"
        f" p95 {_p(times, 0.95):.1f} ms, max {1000 * max(times):.1f} ms ({len(times)} {what})"
    )


async def bench(args: argparse.Namespace, url: str) -> None:
    async with FakeTelegram(TOKEN) as server:
        the_club = club(server)
        await stored_games(args, url, the_club.group.id)
        if not args.reads_only:
            await end_to_end(the_club, url, args.runs)


async def end_to_end(the_club: Club, url: str, runs: int) -> None:
    print("end to end (the bot against the fake Bot API; update sent -> answer received):")
    for name, (times, answer) in (await timed(the_club, url, runs)).items():
        print(f"{_figures(name, times, 'commands')}: {answer} ...")


async def stored_games(args: argparse.Namespace, url: str, chat: int) -> None:
    """The chat's games stored and taken in; the recompute, the levels, what /top and /me
    read; then the other chats' games, if any."""
    games, every, runs = args.games, args.every, args.runs
    store = await Store.open(url)
    try:
        started = time.perf_counter()
        logs = list(chat_games(games, detectives_every=every))
        played = time.perf_counter() - started
        rating = 0.0
        for number, events in enumerate(logs):
            await archive(store, chat, events, START + timedelta(hours=number))
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
        if args.other_games:
            await store.db.run_write(_other_chats, chat, args.other_games)
            print(f"  and {args.other_games} ended games of 500 other chats, taken in")

        async def top() -> None:  # as the handlers read
            await ratings.rate_pending(chat_id=chat)
            for family in (FORUM, TABLE):
                await ratings.leaderboard(chat, family)

        async def me() -> None:
            await ratings.rate_pending(user_id=ASKER)
            await ratings.of_person(ASKER)
            await ratings.choices(ASKER)

        print("what /top and /me read in storage:")
        for name, read in (("/top", top), ("/me", me)):
            print(_figures(name, await _timed(runs, read), "reads"))
        mine = {k: r for k, r in stored.items() if k.chat_id == EVERY_CHAT and k.subject == ASKER}
        in_chat = sum(1 for k in stored if k.chat_id == chat and k.pool != COMPUTERS)
        print(
            f"  (/me for a person with {sum(r.games for r in mine.values())} rated games,"
            f" {', '.join(f'{k.family} {k.pool} {r.games}' for k, r in mine.items())};"
            f" /top over the chat's {in_chat} people's ratings)"
        )
        await game_ends(store, chat - 1000, args.ends)
    finally:
        await store.close()


async def game_ends(store: Store, chat: int, count: int) -> None:
    """`count` forum games of four others played through the store: the command that ends
    each, timed (the ratings take the game in beside it), and the take-in after it."""
    ending: list[float] = []
    taking_in: list[float] = []
    for seed in range(count):
        game = PeopleGame(seed, 4, people=(101, 102, 103, 104))
        game.play()
        (opening, at), *rest = game.commands
        assert isinstance(opening, cmd.OpenLobby)
        game_id = (await store.create_game(chat - seed, 0, opening, at)).game_id
        for command, at in rest:
            started = time.perf_counter()
            try:
                outcome = await store.execute(game_id, command, at)
            except RuleError:
                continue
            if any(isinstance(event, GameEnded) for event in outcome.events):
                ending.append(time.perf_counter() - started)
                started = time.perf_counter()
                await store.ratings_taken_in()
                taking_in.append(time.perf_counter() - started)
    if ending:
        print(f"games ended through the store ({len(ending)}):")
        print(_figures("the ending command", ending, "games"))
        print(_figures("then the take-in, beside it", taking_in, "games"))


def _other_chats(conn: Connection, chat: int, count: int) -> None:
    """`count` ended games of 500 other chats, as taken in already: the games' rows and
    their rated_games rows alone (no log: stored after the recompute, which reads them)."""
    g, r = GameRecord, RatedGameRecord
    first = conn.execute(select(func.coalesce(func.max(g.id), 0))).scalar_one() + 1
    seq = conn.execute(select(func.coalesce(func.max(r.seq), 0))).scalar_one() + 1
    row = {"topic_id": 0, "status": ENDED, "last_seq": 0, "created_at": START}
    games = [
        {**row, "id": first + n, "chat_id": chat - 1 - n % 500, "updated_at": START}
        for n in range(count)
    ]
    conn.execute(insert(g), games)
    rated = [{"game_id": first + n, "seq": seq + n, "rated": False} for n in range(count)]
    conn.execute(insert(r), rated)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--every", type=int, default=5, help="one game in N with detectives")
    parser.add_argument("--url", help="a database (default: a fresh SQLite file)")
    parser.add_argument("--runs", type=int, default=RUNS, help="timed reads and commands of each")
    parser.add_argument("--reads-only", action="store_true", help="leave the bot out")
    parser.add_argument("--ends", type=int, default=20, help="games ended through the store")
    parser.add_argument(
        "--other-games", type=int, default=0, help="ended games of other chats (bare rows)"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        url = args.url or f"sqlite:///{Path(folder) / 'ratings.db'}"
        asyncio.run(bench(args, url))


if __name__ == "__main__":
    main()
