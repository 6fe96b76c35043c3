"""The demo's stage: the in-repo fake Bot API on a local port and the real bot polling it,
in this event loop, on a clock that moves only when the demo moves it (deadlines run at
their moment, in order). No token, no network: everything stays on 127.0.0.1."""

from __future__ import annotations

import asyncio
import os
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from pydantic_settings import BaseSettings, PydanticBaseSettingsSource
from telegram import Update
from telegram.ext import TypeHandler

from bot.app import build_application
from bot.config import BotConfig
from bot.context import App
from bot.intake import Intake
from bot.scheduler import Scheduler
from bot.services import Services
from bot.shutdown import close_application
from fakebot import FakeTelegram
from storage.claims import deliverable

TOKEN = "123456:DEMO"  # the fake's and the bot's; Telegram never sees it
# Telegram's rate limits and the per-person flood limits would only slow the demo down.
RELAXED: dict[str, Any] = {
    "group_messages_per_minute": 100_000,
    "messages_per_second": 100_000,
    "private_messages_per_second": 100_000,
    "flood_group_limit": 100_000,
    "flood_private_limit": 100_000,
    "flood_group_sustained_limit": 100_000,
    "refusal_edit_seconds": 0,
}


class DemoConfig(BotConfig):
    """The bot's settings as the demo sets them: no environment, no `.env` read."""

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        return (init_settings,)


class Clock:
    """The demo's time: starts at the current minute, moves only when told."""

    def __init__(self) -> None:
        self.moment = datetime.now(UTC).replace(second=0, microsecond=0)

    def now(self) -> datetime:
        return self.moment


class Stage:
    """The fake Bot API and the bot on it; `start`, then `settle` after each step."""

    def __init__(self) -> None:
        self.server = FakeTelegram(TOKEN)
        self.clock = Clock()
        self.in_flight = 0
        self.began = 0  # updates the bot has begun to handle
        # The game's database lives as long as the demo, in memory where there is a tmpfs.
        shm = Path("/dev/shm")
        where = str(shm) if shm.is_dir() and os.access(shm, os.W_OK) else None
        self.folder = tempfile.TemporaryDirectory(prefix="whodunit-demo-", dir=where)
        self.app: App | None = None
        self.intake: Intake | None = None
        self.stop_intake = asyncio.Event()
        self.intake_task: asyncio.Task[None] | None = None

    @property
    def services(self) -> Services:
        assert self.app is not None
        found: Services = self.app.bot_data["services"]
        return found

    @property
    def scheduler(self) -> Scheduler:
        assert self.app is not None
        found: Scheduler = self.app.bot_data["scheduler"]
        return found

    async def start(self) -> None:
        """The fake server on a free local port, then the bot against it."""
        await self.server.start()
        database = Path(self.folder.name) / "demo.db"
        config = DemoConfig(
            bot_token=TOKEN,
            database_url=f"sqlite:///{database}",
            telegram_api_url=self.server.base_url,
            sweep_seconds=3600,  # the demo runs the deadlines itself, on its clock
            **RELAXED,
        )
        app = build_application(config)
        self.app = app
        app.add_handler(TypeHandler(Update, self._began), group=-100)
        app.add_handler(TypeHandler(Update, self._ended), group=100)
        await app.initialize()
        assert app.post_init is not None
        await app.post_init(app)
        self.services.clock = self.clock.now
        self.scheduler.booted_at = self.clock.now()
        await self.services.store.workers.beat(self.scheduler.worker, self.clock.now())
        await app.start()
        self.intake = Intake(app, poll_seconds=1)
        self.intake_task = asyncio.create_task(self.intake.run(self.stop_intake))

    async def _began(self, update: Update, context: object) -> None:
        self.in_flight += 1
        self.began += 1

    async def _ended(self, update: Update, context: object) -> None:
        self.in_flight -= 1

    async def stop(self) -> None:
        """The bot, then the server; the temporary database goes with its folder."""
        app = self.app
        if app is not None and app.running:
            self.stop_intake.set()
            if self.intake_task is not None:
                await self.intake_task
            await close_application(app)
        await self.server.stop()
        self.folder.cleanup()

    async def settle(self, timeout: float = 30.0) -> None:
        """Until every update is handled and every owed message delivered: three looks in a
        row find nothing under way (each hand-off between them, the update queue, a handler,
        the outbox, takes an event-loop turn, not a timer: a millisecond apart is enough)."""
        assert self.app is not None
        store = self.services.store
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        quiet = 0
        while quiet < 3:
            due = await store.db.run_read(deliverable, self.services.now())
            world = self.server.world
            busy = (
                world.updates
                or self.began < world.next_update_id - 1  # fetched, not yet handed to a handler
                or self.in_flight
                or getattr(self.app.update_processor, "waiting", 0)
                or not self.app.update_queue.empty()
                or due
            )
            quiet = 0 if busy else quiet + 1
            if loop.time() > deadline:
                raise TimeoutError("the bot did not settle")
            self.services.outbox_ready.set()
            await asyncio.sleep(0.001)

    async def advance(self, by: timedelta) -> None:
        """Move the clock as real time would: each deadline runs at its moment, in order."""
        target = self.clock.moment + by
        await self.run_due(until=target)
        self.clock.moment = target

    async def next_deadline(self) -> datetime | None:
        """When the earliest pending deadline falls due (None: there is none)."""
        upcoming = await self.services.store.deadlines.upcoming(limit=1)
        return upcoming[0].due_at if upcoming else None

    async def run_due(self, until: datetime) -> None:
        """Every deadline up to `until`, each at its own moment."""
        while (due := await self.next_deadline()) is not None and due <= until:
            self.clock.moment = max(self.clock.moment, due)
            ran = await self.scheduler.sweep()
            await self.settle()
            if not ran:  # held by a lease (a failed run): its retry is not the demo's
                return
