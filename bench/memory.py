"""Resident memory of the bot per 100 running games.

    .venv/bin/python -m bench.memory [--games 0,20,1000] [--backend sqlite|postgresql]
        [--players 4] [--concurrency 32]

For each count: a fresh database holding that many started games (4 players each, one
unanswered suggestion waiting, as `bench.service --running-games` stores them), each in a
group of the in-repo fake Bot API with its players (so the bot can be asked about it); then
the real `whodunit run` (polling, Telegram's limits lifted) starts, someone in every group
sends /status and waits for the answer (so every game's state has been loaded and the
people are known), and after 2 s of quiet the bot's VmRSS is read from /proc. Printed: VmRSS
after start-up and after the touches, and MB per 100 games against the first count (and
between the last two counts, which leaves out what the first touch of any game loads).
The bot keeps at most 1,000 game states in memory (storage's `StateCache`), so counts past
that measure the cap, not a growth. Target: at most 5 MB per 100 running games.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path

from bench.postgres import fresh_database
from bench.service_prefill import mark_sent
from bench.service_procs import TOKEN, Bot, resident_mb, whodunit_env
from bot.editions.registry import shipped
from engine import commands as cmd
from engine.cards import Category
from engine.settings import Settings
from fakebot import FakeTelegramClient, RemoteGroup, RemoteUser
from storage.service import Store

STRICT = Settings(auto_no_refutation=False)  # every suggestion waits for its answer
PATIENCE = 120.0


async def groups(
    fake: FakeTelegramClient, count: int, players: int, tag: str
) -> list[tuple[RemoteGroup, list[RemoteUser]]]:
    """`count` groups of the fake, each with its own `players` (the first its admin)."""
    made = []
    for n in range(count):
        people = [await fake.add_user(f"M{tag}{n}x{i}") for i in range(players)]
        group = await fake.add_group(
            f"Memory {tag}{n}", admins=people[:1], members=people[1:], bot_admin=True
        )
        made.append((group, people))
    return made


async def store_games(url: str, tables: list[tuple[RemoteGroup, list[RemoteUser]]]) -> None:
    """A started game in each group, with one unanswered suggestion; messages marked sent."""
    now = datetime.now(UTC)
    plan_messages = shipped().plan_messages
    store = await Store.open(url)
    try:
        for n, (group, people) in enumerate(tables):
            first, *others = (p.id for p in people)
            opening = cmd.OpenLobby(actor=first, seed=n, settings=STRICT)
            outcome = await store.create_game(group.id, 0, opening, now, plan_messages)
            for user in others:
                await store.execute(outcome.game_id, cmd.JoinLobby(actor=user), now, plan_messages)
            started = cmd.StartGame(actor=first)
            game = (await store.execute(outcome.game_id, started, now, plan_messages)).state
            suggestion = cmd.MakeSuggestion(
                actor=first,
                target=others[0],
                suspect=game.in_play(Category.SUSPECT)[0],
                weapon=game.in_play(Category.WEAPON)[0],
                place=game.in_play(Category.PLACE)[0],
            )
            await store.execute(outcome.game_id, suggestion, now, plan_messages)
    finally:
        await store.close()
    await mark_sent(url)


async def touch(
    fake: FakeTelegramClient, tables: list[tuple[RemoteGroup, list[RemoteUser]]], concurrency: int
) -> None:
    """/status in every group, each awaited (its game's state loaded by the bot)."""
    gate = asyncio.Semaphore(concurrency)

    async def one(group: RemoteGroup, person: RemoteUser) -> None:
        async with gate:
            after = time.time()
            await person.send(group, "/status")
            await fake.wait_call(
                after=after, chat_id=group.id, pattern="answers owed", timeout=PATIENCE
            )

    await asyncio.gather(*(one(group, people[0]) for group, people in tables))


async def measure(
    fake: FakeTelegramClient, args: argparse.Namespace, folder: Path, url: str, count: int
) -> float:
    """Store `count` games, start the bot, touch them all; its VmRSS (MB) at the end."""
    tables = await groups(fake, count, args.players, uuid.uuid4().hex[:4])
    t0 = time.perf_counter()
    if tables:
        await store_games(url, tables)
    stored = time.perf_counter() - t0
    env = whodunit_env(fake, url, real_limits=False)
    t0 = time.perf_counter()
    bot = await Bot.start(fake, ["bot.cli", "run"], env, folder / "memory.log")
    try:
        started = time.perf_counter() - t0
        await asyncio.sleep(2.0)
        idle = resident_mb(bot.process.pid)
        t0 = time.perf_counter()
        await touch(fake, tables, args.concurrency)
        touched = time.perf_counter() - t0
        await asyncio.sleep(2.0)
        rss = resident_mb(bot.process.pid)
    finally:
        await bot.stop()
    print(
        f"  {count:6d} running games: VmRSS {idle:6.1f} MB after start-up ({started:.1f} s),"
        f" {rss:6.1f} MB after a /status in each ({touched:.1f} s; stored in {stored:.0f} s)",
        flush=True,
    )
    return rss


def per_hundred(low: tuple[int, float], high: tuple[int, float]) -> str:
    (n0, mb0), (n1, mb1) = low, high
    return f"{100 * (mb1 - mb0) / (n1 - n0):.2f} MB per 100 games ({n0} -> {n1})"


async def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bench.memory",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--games", default="0,20,1000", help="counts of running games")
    parser.add_argument("--backend", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--concurrency", type=int, default=32, help="/status out at once")
    args = parser.parse_args(argv)
    counts = sorted({int(x) for x in args.games.split(",") if x})
    print(f"resident memory of `whodunit run` ({args.backend}) by running games:", flush=True)
    fake = await FakeTelegramClient.launch(TOKEN)
    found: list[tuple[int, float]] = []
    try:
        with tempfile.TemporaryDirectory() as name:
            folder = Path(name)
            for count in counts:
                if args.backend == "sqlite":
                    url = f"sqlite:///{folder}/memory-{count}.db"
                    found.append((count, await measure(fake, args, folder, url, count)))
                    continue
                async with fresh_database() as url:
                    found.append((count, await measure(fake, args, folder, url, count)))
    finally:
        await fake.aclose()
    if len(found) >= 2:
        print(f"  {per_hundred(found[0], found[-1])}", flush=True)
    if len(found) >= 3:
        print(f"  {per_hundred(found[-2], found[-1])}", flush=True)


if __name__ == "__main__":
    asyncio.run(main())
