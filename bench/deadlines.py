"""Deadline benchmark: 1,000 games whose days end at the same moment, run by the scheduler.

    .venv/bin/python -m bench.deadlines [--games 1000] [--no-postgres]

Each game has one unanswered suggestion, so each day end also has the GM answer for the
silent target, and every message is queued in the outbox (real planner). Prints the time
from the moment the days end until every one of them has ended and the next day opened.
Target: under 10 s on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from datetime import timedelta

from bench.postgres import fresh_database
from bot.scheduler import Scheduler
from bot.services import Services
from simulation.crowd import START, crowd
from storage.service import Store


async def measure(url: str, games: int) -> None:
    store = await Store.open(url)
    try:
        made = time.perf_counter()
        ids = await crowd(store, games)
        setup = time.perf_counter() - made
        moment = START + timedelta(days=1, seconds=1)
        services = Services(store=store, clock=lambda: moment)
        scheduler = Scheduler(services, "bench")
        begin = time.perf_counter()
        ran = await scheduler.sweep()
        took = time.perf_counter() - begin
        days = [(await store.load(i)).day for i in ids[:: max(1, games // 50)]]
        assert all(d == 2 for d in days), "every sampled game is on day 2"
        counts = await store.outbox.counts()
        print(f"  set-up of {games} games: {setup:.1f} s")
        print(
            f"  {ran} deadlines ({games} day ends) in {took:.2f} s "
            f"= {games / took:,.0f} day ends/s; outbox now {counts}"
        )
    finally:
        await store.close()


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--no-postgres", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        print("SQLite:")
        await measure(f"sqlite:///{folder}/bench.db", args.games)
    if args.no_postgres:
        return
    async with fresh_database() as url:
        print("PostgreSQL:")
        await measure(url, args.games)
    print("(target: 1,000 simultaneous day ends in under 10 s)")


if __name__ == "__main__":
    asyncio.run(main())
