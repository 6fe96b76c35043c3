"""Storage benchmark: commands per second through Store.execute, and the time to load a game.

    .venv/bin/python -m bench.storage [--commands 3000] [--games 8] [--no-postgres]

SQLite runs on a temporary file; PostgreSQL on a temporary database created on the server
named by WHODUNIT_TEST_POSTGRES_URL (default: the local server) and dropped afterwards.
Targets: 500 commands/s on each backend; a 500-event game loads in under 20 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime

from bench.postgres import fresh_database
from engine import commands as cmd
from engine import events as ev
from engine.cards import Category
from engine.settings import Settings
from engine.state import Game
from storage.messages_owed import OutboxItem, PlanContext
from storage.service import Store

NOW = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
SETTINGS = Settings(suggestions_per_day=100_000, max_per_target_per_day=100_000, max_players=10)


def planner(ctx: PlanContext) -> list[OutboxItem]:
    """Like the bot's: a thread post per event, the shown card by direct message."""
    items = []
    for seq, event in enumerate(ctx.events, start=ctx.first_seq):
        key = f"g{ctx.game_id}:e{seq}"
        payload = {"msg": type(event).__name__, "args": {"seq": seq}}
        items.append(OutboxItem(key=key, chat_id=ctx.chat_id, payload=payload))
        if isinstance(event, ev.SuggestionRefuted):
            user = ctx.after.players[ctx.after.suggestions[event.suggestion - 1].suggester].user
            card = {"msg": "card", "args": {"card": event.card}}
            items.append(OutboxItem(key=f"{key}:dm", chat_id=user, user_id=user, payload=card))
    return items


def next_command(state: Game, n: int) -> cmd.Command:
    """Answer the pending suggestion, else make a new one: a suggestion/answer stream."""
    pending = state.pending_answers()
    if pending:
        s = pending[0]
        answering = state.players[s.target]
        held = [c for c in s.cards if c in answering.hand]
        if held:
            return cmd.Refute(actor=answering.user, suggestion=s.id, card=held[0])
        return cmd.DeclareNoRefutation(actor=answering.user, suggestion=s.id)
    players = len(state.players)
    actor = 1 + n % players
    target = 1 + (actor + n // players % (players - 1)) % players
    suspects, weapons = state.in_play(Category.SUSPECT), state.in_play(Category.WEAPON)
    places = state.in_play(Category.PLACE)
    return cmd.MakeSuggestion(
        actor=actor,
        target=target,
        suspect=suspects[n % len(suspects)],
        weapon=weapons[n // 3 % len(weapons)],
        place=places[n // 7 % len(places)],
    )


async def new_game(store: Store, chat: int, players: int = 4) -> tuple[int, Game]:
    opening = cmd.OpenLobby(actor=1, seed=chat, settings=SETTINGS)
    outcome = await store.create_game(chat, 0, opening, NOW, planner)
    for user in range(2, players + 1):
        outcome = await store.execute(outcome.game_id, cmd.JoinLobby(actor=user), NOW, planner)
    outcome = await store.execute(outcome.game_id, cmd.StartGame(actor=1), NOW, planner)
    return outcome.game_id, outcome.state


async def play(store: Store, game_id: int, state: Game, commands: int) -> Game:
    for n in range(commands):
        state = (await store.execute(game_id, next_command(state, n), NOW, planner)).state
    return state


async def throughput(store: Store, games: int, commands: int) -> float:
    """Commands per second with `games` games played at once, one task each."""
    started = [await new_game(store, -1000 - i - games * 1000) for i in range(games)]
    per_game = commands // games
    t0 = time.perf_counter()
    await asyncio.gather(*(play(store, gid, state, per_game) for gid, state in started))
    return per_game * games / (time.perf_counter() - t0)


async def timed(action: Callable[[], Awaitable[object]], runs: int) -> float:
    """Median milliseconds of `runs` runs."""
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        await action()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


async def load_times(url: str) -> dict[str, float]:
    """Load a 500-event game: cold (replay all), from a snapshot, and from this process's cache."""
    store = await Store.open(url, snapshot_every=None)
    try:
        gid, state = await new_game(store, -77)
        n, seq = 0, 0
        while seq < 500:
            outcome = await store.execute(gid, next_command(state, n), NOW, planner)
            state, seq, n = outcome.state, outcome.first_seq + len(outcome.events) - 1, n + 1
        events = len(await store.events(gid))

        async def cold() -> Game:
            store.forget_cached_states()
            return await store.load(gid)

        figures = {"events": float(events), "cold": await timed(cold, 30)}
        figures["cached"] = await timed(lambda: store.load(gid), 30)
    finally:
        await store.close()
    snapshotting = await Store.open(url, migrate=False, snapshot_every=1)
    try:
        await snapshotting.execute(gid, next_command(state, n), NOW, planner)

        async def from_snapshot() -> Game:
            snapshotting.forget_cached_states()
            return await snapshotting.load(gid)

        figures["snapshot"] = await timed(from_snapshot, 30)
    finally:
        await snapshotting.close()
    return figures


async def bench(name: str, url: str, commands: int, games: int) -> None:
    store = await Store.open(url)
    try:
        one = await throughput(store, 1, commands // 2)
        many = await throughput(store, games, commands)
    finally:
        await store.close()
    load = await load_times(url)

    def mark(ok: bool) -> str:
        return "meets the target" if ok else "BELOW THE TARGET"

    print(f"{name}:")
    print(f"  commands/s, one game at a time      {one:8.0f}   {mark(one >= 500)} (500)")
    print(f"  commands/s, {games} games at once         {many:8.0f}   {mark(many >= 500)} (500)")
    print(
        f"  load a {load['events']:.0f}-event game, cold replay  {load['cold']:6.2f} ms"
        f"   {mark(load['cold'] < 20)} (20 ms)"
    )
    print(f"  load it from a snapshot              {load['snapshot']:6.2f} ms")
    print(f"  load it from this process's cache    {load['cached']:6.2f} ms")


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--commands", type=int, default=3000)
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--no-postgres", action="store_true")
    args = parser.parse_args()
    print(f"{os.cpu_count()} CPUs; each command: a suggestion or its answer, with outbox rows")
    with tempfile.TemporaryDirectory() as folder:
        await bench("SQLite", f"sqlite:///{folder}/bench.db", args.commands, args.games)
    if args.no_postgres:
        return
    async with fresh_database() as url:
        await bench("PostgreSQL", url, args.commands, args.games)


if __name__ == "__main__":
    asyncio.run(main())
