"""One sweeping process for the multi-process test.

`python -m tests.support.sweeper URL WORKER ISO`

Runs the bot's Scheduler sweep at the given moment until nothing is due, and prints one
JSON line per deadline it ran: {"game": id, "key": key}.
"""

from __future__ import annotations

import asyncio
import json
import sys
from datetime import datetime

from bot.scheduler import Scheduler
from bot.services import Services
from storage.deadlines import DeadlineRow
from storage.service import Store


class RecordingScheduler(Scheduler):
    async def run_one(self, row: DeadlineRow, now: datetime) -> None:
        await super().run_one(row, now)
        print(json.dumps({"game": row.game_id, "key": row.key}), flush=True)


async def main(url: str, worker: str, moment: str) -> None:
    now = datetime.fromisoformat(moment)
    store = await Store.open(url, migrate=False)
    try:
        services = Services(store=store, clock=lambda: now)
        scheduler = RecordingScheduler(services, worker)
        while await scheduler.sweep():
            pass
    finally:
        await store.close()


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:4]))
