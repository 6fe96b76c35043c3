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
import os
import tempfile
import time
import uuid
from datetime import timedelta

import asyncpg
from sqlalchemy.engine import make_url

from bot.scheduler import Scheduler
from bot.services import Services
from simulation.crowd import START, crowd
from storage.service import Store

PG_URL = os.environ.get(
    "WHODUNIT_TEST_POSTGRES_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
)


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
    name = f"whodunit_bench_{uuid.uuid4().hex[:8]}"
    admin = make_url(PG_URL).set(drivername="postgresql").render_as_string(hide_password=False)
    conn = await asyncpg.connect(admin)
    await conn.execute(f'CREATE DATABASE "{name}"')
    try:
        print("PostgreSQL:")
        await measure(
            make_url(PG_URL).set(database=name).render_as_string(hide_password=False), args.games
        )
    finally:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await conn.close()
    print("(target: 1,000 simultaneous day ends in under 10 s)")


if __name__ == "__main__":
    asyncio.run(main())
