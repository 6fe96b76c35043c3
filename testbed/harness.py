"""The real bot (python-telegram-bot, storage, sender, scheduler) against the fake Bot API,
with a clock the caller moves."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy.engine import Connection
from telegram import Update
from telegram.ext import TypeHandler

from bot.app import build_application
from bot.config import BotConfig
from bot.context import App
from bot.demo.stage import RELAXED
from bot.editions.base import Edition
from bot.editions.registry import EDITIONS
from bot.intake import Intake
from bot.scheduler import Scheduler
from bot.services import Services, fresh_seed
from bot.shutdown import close_application
from engine import REGISTRY
from engine.registry import Registry
from fakebot import FakeGroup, FakeMessage, FakeTelegram, FakeUser
from storage.claims import deliverable

TOKEN = "123:ABC"


@dataclass
class Clock:
    """A clock that moves only when told."""

    moment: datetime = field(default_factory=lambda: datetime(2026, 11, 30, 9, 0, tzinfo=UTC))

    def now(self) -> datetime:
        return self.moment

    def advance(self, by: timedelta) -> None:
        self.moment += by


class BotHarness:
    """Starts the bot's Application in this event loop, polling the fake server."""

    def __init__(
        self,
        server: FakeTelegram,
        database_url: str,
        clock: Clock | None,
        *,
        sweep_seconds: float = 3600,
        settings: dict[str, Any] | None = None,
        editions: tuple[Edition, ...] = EDITIONS,
        registry: Registry = REGISTRY,
    ) -> None:
        """With `clock` None the bot runs on real time and its own scheduler. The bot shows
        `editions` and plays the formats of the engine's `registry` (the shipped ones unless a
        test adds its own).

        Telegram's rate limits, the per-person flood limits and the editing of repeated
        refusals are off unless `settings` (BotConfig fields) sets them. A new game's seed
        is random until a test fixes it (`seed`).
        """
        self.server = server
        self.clock = clock or Clock()
        self.real_time = clock is None
        chosen: dict[str, Any] = {**RELAXED, **(settings or {})}
        self.config = BotConfig(
            bot_token=TOKEN,
            database_url=database_url,
            telegram_api_url=server.base_url,
            sweep_seconds=sweep_seconds,
            _env_file=None,  # type: ignore[call-arg]
            **chosen,
        )
        self.seed: int | None = None  # every new game's, once a test fixes it
        self.app: App = build_application(self.config, self._seed, editions, registry)
        self.in_flight = 0
        self.app.add_handler(TypeHandler(Update, self._began), group=-100)
        self.app.add_handler(TypeHandler(Update, self._ended), group=100)

    def _seed(self) -> int:
        return fresh_seed() if self.seed is None else self.seed

    async def _began(self, update: Update, context: object) -> None:
        self.in_flight += 1

    async def _ended(self, update: Update, context: object) -> None:
        self.in_flight -= 1

    @property
    def services(self) -> Services:
        found: Services = self.app.bot_data["services"]
        return found

    @property
    def scheduler(self) -> Scheduler:
        found: Scheduler = self.app.bot_data["scheduler"]
        return found

    async def start(self) -> None:
        await self.app.initialize()
        assert self.app.post_init is not None
        await self.app.post_init(self.app)
        if not self.real_time:
            self.services.clock = self.clock.now
            # The flood limits and the edits of repeated refusals count on the same clock.
            self.app.bot_data["flood_gate"].guard.clock = self._seconds
            self.services.refusals.clock = self._seconds
            # The scheduler started on the real clock: it started at the test's moment.
            self.scheduler.booted_at = self.clock.now()
            await self.services.store.workers.beat(self.scheduler.worker, self.clock.now())
        await self.app.start()
        self.intake = Intake(self.app, poll_seconds=1)
        self._stop_intake = asyncio.Event()
        self._intake_task = asyncio.create_task(self.intake.run(self._stop_intake))

    def _seconds(self) -> float:
        return self.clock.now().timestamp()

    async def stop(self) -> None:
        if not self.app.running:  # stopped already (a test that restarts the bot)
            return
        self._stop_intake.set()
        await self._intake_task
        await close_application(self.app)  # as `whodunit run` stops

    async def settle(self, timeout: float = 10.0) -> None:
        """Wait until every update is handled and every owed message is delivered: three
        looks in a row find nothing under way. Each hand-off between those looks (the update
        queue, a handler, the outbox) takes an event-loop turn, not a timer, so 5 ms between
        looks is enough; with 20 ms the end-to-end tests spent a third of their time here.

        An edit's lazy mark (storage.marks), sent but written only after half a second of
        real time, is written at once: the edit is delivered, and the tests waited out that
        half second once per edit (two thirds of a whole game's time)."""
        store = self.services.store
        deadline = asyncio.get_running_loop().time() + timeout
        quiet = 0
        while quiet < 3:
            due = await store.db.run_read(_due_rows, self.services.now())
            busy = (
                self.server.world.updates
                or self.in_flight
                or getattr(self.app.update_processor, "waiting", 0)
                or not self.app.update_queue.empty()
                or due
                or store.taking_in  # ratings taken in after a game's end
            )
            quiet = 0 if busy else quiet + 1
            if asyncio.get_running_loop().time() > deadline:
                counts = await store.outbox.counts()
                raise TimeoutError(
                    f"not settled: {counts}, {len(self.server.world.updates)} updates"
                )
            self.services.outbox_ready.set()
            if store.outbox.marks.waiting:
                store.outbox.marks.flush()
            await asyncio.sleep(0.005)

    async def advance(self, by: timedelta) -> None:
        """Move the clock as real time would: each deadline runs at its moment, in order."""
        target = self.clock.now() + by
        store = self.services.store
        while True:
            upcoming = await store.deadlines.upcoming(limit=1)
            if not upcoming or upcoming[0].due_at > target:
                break
            self.clock.moment = max(self.clock.moment, upcoming[0].due_at)
            await self.scheduler.sweep()
            await self.settle()
        self.clock.moment = target
        await self.scheduler.sweep()
        await self.settle()

    async def say(
        self, user: FakeUser, chat: FakeGroup | None, text: str, **kw: Any
    ) -> FakeMessage:
        message = user.send(chat, text, **kw) if chat is not None else user.send_private(text)
        await self.settle()
        return message

    async def press(self, user: FakeUser, message: FakeMessage, text: str) -> Any:
        answer = await user.press(message, text)
        await self.settle()
        return answer


def _due_rows(conn: Connection, now: datetime) -> int:
    """Outbox rows the sender should be delivering now: claimed ones, and those it could
    claim (not those waiting for a retry, for their chat's slot, or behind such a row)."""
    return deliverable(conn, now)
