"""Delivery benchmark: the window between Telegram's answer and the committed "sent" mark.

    .venv/bin/python -m bench.delivery [--games 12] [--rounds 40] [--no-postgres]

The bot runs on the test bed (`testbed.harness`, shared with the tests) against the fake
Bot API (`fakebot`).

The real bot (python-telegram-bot, sender, storage) runs against the fake Bot API over
HTTP, with Telegram's limits off, while the games' commands keep the database busy. For
every message the sender measures from the moment Telegram's answer arrived to the moment
the mark was committed (`Sender.mark_window`): a crash inside that window is the only way
a message can be sent twice. Prints p50/p99/max per backend.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

from bench.postgres import fresh_database
from bot.delivery.sender import Sender
from engine import commands as cmd
from engine.settings import Settings
from engine.state import Phase
from fakebot import FakeTelegram
from simulation.moves import answer_for, suggestion_for
from testbed.harness import BotHarness

TOKEN = "123:ABC"
ROOMY = Settings(
    suggestions_per_day=100_000, max_per_target_per_day=100_000, auto_no_refutation=False
)


async def play(harness: BotHarness, chat_id: int, people: list[int], rounds: int) -> int:
    """A game that suggests and answers `rounds` times; how many commands it ran."""
    services = harness.services
    opening = cmd.OpenLobby(actor=people[0], seed=chat_id % 1000, settings=ROOMY)
    game_id = (await services.create(chat_id, 0, opening)).game_id
    for person in people[1:]:
        await services.run(game_id, cmd.JoinLobby(actor=person))
    state = (await services.run(game_id, cmd.StartGame(actor=people[0]))).state
    commands = len(people) + 1
    for n in range(rounds):
        if state.phase is not Phase.RUNNING:
            break
        actor, target = people[n % len(people)], people[(n + 1) % len(people)]
        state = (await services.run(game_id, suggestion_for(state, actor, target, n))).state
        state = (await services.run(game_id, answer_for(state, len(state.suggestions)))).state
        commands += 2
    return commands


async def measure(database_url: str, games: int, rounds: int) -> tuple[Sender, float, int]:
    async with FakeTelegram(TOKEN) as server:
        harness = BotHarness(server, database_url, None, sweep_seconds=1.0)
        await harness.start()
        try:
            groups = []
            for g in range(games):
                people = [server.add_user(f"P{g}x{n}", username=f"p{g}x{n}") for n in range(4)]
                for person in people:
                    person.start_bot()
                group = server.add_group(f"Club {g}", admins=people[:1], members=people)
                groups.append((group.id, [p.id for p in people]))
            await harness.settle(timeout=60)
            began = time.perf_counter()
            counts = await asyncio.gather(*(play(harness, c, p, rounds) for c, p in groups))
            await harness.settle(timeout=600)
            elapsed = time.perf_counter() - began
            sender: Sender = harness.app.bot_data["sender"]
            return sender, elapsed, sum(counts)
        finally:
            await harness.stop()


def report(name: str, sender: Sender, elapsed: float, commands: int) -> None:
    p50, p99 = sender.window_percentiles()
    print(
        f"{name:10} {len(sender.mark_window):6} messages, {commands} commands in {elapsed:.1f} s:"
        f" answer -> committed mark p50 {p50:.2f} ms, p99 {p99:.2f} ms,"
        f" max {1000 * max(sender.mark_window):.2f} ms"
    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--no-postgres", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'bench.db'}"
        report("SQLite", *await measure(url, args.games, args.rounds))
    if args.no_postgres:
        return
    async with fresh_database() as url:
        report("PostgreSQL", *await measure(url, args.games, args.rounds))


if __name__ == "__main__":
    asyncio.run(main())
