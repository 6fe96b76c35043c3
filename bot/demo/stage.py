"""The demo's stage: the in-repo fake Bot API on a local port and the real bot polling it,
in this event loop, on a clock that moves only when the demo moves it (deadlines run at
their moment, in order). No token, no network: everything stays on 127.0.0.1.

The demo relaxes Telegram's limits; with `telegram_limits` the bot keeps them (bench/tempo),
and the stage then runs on a `LoopClock` (bot/demo/clock.py): a delivery or a handler's call
asleep until its chat's slot frees is waiting, not busy (`settle` lets it sleep), and moving
the clock wakes it at its moment (`advance_to`, `step`)."""

from __future__ import annotations

import asyncio
import os
import tempfile
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import MappingProxyType
from typing import Any

from pydantic_settings import BaseSettings, PydanticBaseSettingsSource
from telegram import Update
from telegram.ext import TypeHandler

from bot.app import build_application
from bot.config import BotConfig
from bot.context import App
from bot.delivery.limiter import OutboundLimiter
from bot.delivery.request_limiter import RequestLimiter
from bot.demo.clock import Clock
from bot.demo.watch import Watched, owed_by_chat, owed_next
from bot.intake import Intake
from bot.scheduler import Scheduler
from bot.services import Seeds, Services, fresh_seed
from bot.shutdown import close_application
from fakebot import FakeTelegram

TOKEN = "123456:DEMO"  # the fake's and the bot's; Telegram never sees it
# Telegram's rate limits and the per-person flood limits would only slow the demo down.
RELAXED: Mapping[str, Any] = MappingProxyType(
    {
        "group_messages_per_minute": 100_000,
        "messages_per_second": 100_000,
        "private_messages_per_second": 100_000,
        "flood_group_limit": 100_000,
        "flood_private_limit": 100_000,
        "flood_group_sustained_limit": 100_000,
        "refusal_edit_seconds": 0,
    }
)
TELEGRAM = ("group_messages_per_minute", "messages_per_second", "private_messages_per_second")
POLL_SECONDS = 10**8  # getUpdates' long poll: held until an update comes
WAKING = 0.05  # seconds: a wait ending sooner is as good as over (settle waits for it)


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


class Stage:
    """The fake Bot API and the bot on it; `start`, then `settle` after each step.

    `clock`: the demo's own by default; `telegram_limits`: the bot keeps Telegram's limits
    (the per-person flood limits stay relaxed: they count on the real clock); `settings`:
    more of the bot's settings (BotConfig fields); `seeds`: each new game's seed (random
    by default)."""

    def __init__(
        self,
        clock: Clock | None = None,
        *,
        telegram_limits: bool = False,
        settings: dict[str, Any] | None = None,
        seeds: Seeds = fresh_seed,
    ) -> None:
        self.server = FakeTelegram(TOKEN)
        self.seeds = seeds
        self.clock = clock or Clock()
        relaxed = {k: v for k, v in RELAXED.items() if not (telegram_limits and k in TELEGRAM)}
        self.settings = {**relaxed, **(settings or {})}
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
        self.sending: Watched | None = None  # the sender's limiter, watched
        self.asking: Watched | None = None  # the limiter of the handlers' own calls, watched

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
            **self.settings,
        )
        app = build_application(config, self.seeds)
        self.app = app
        self._watch(app)
        app.add_handler(TypeHandler(Update, self._began), group=-100)
        app.add_handler(TypeHandler(Update, self._ended), group=100)
        await app.initialize()
        assert app.post_init is not None
        await app.post_init(app)
        self.services.clock = self.clock.now
        self.scheduler.booted_at = self.clock.now()
        await self.services.store.workers.beat(self.scheduler.worker, self.clock.now())
        await app.start()
        # A long poll held until an update comes: no poll's timeout falls in a skipped time.
        self.intake = Intake(app, poll_seconds=POLL_SECONDS)
        self.intake_task = asyncio.create_task(self.intake.run(self.stop_intake))

    def _watch(self, app: App) -> None:
        """The one limiter watched twice: as the sender's and as the handlers' calls'."""
        limiter: OutboundLimiter = app.bot_data["limiter"]
        self.sending = Watched(limiter)
        app.bot_data["limiter"] = self.sending  # post_init gives it to the sender
        self.asking = Watched(limiter)
        requests = app.bot.rate_limiter
        if isinstance(requests, RequestLimiter):
            requests.limiter = self.asking

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
        """Until every update is handled and every owed message delivered, but what waits
        for its chat's slot: three looks in a row find nothing under way (each hand-off
        between them, the update queue, a handler, the outbox, takes an event-loop turn, not
        a timer: a millisecond apart is enough). An edit's lazy mark (storage.marks), its
        edit delivered, is written at once rather than after its half second: the demo
        waited that out once per edit, most of a game's time."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        quiet = 0
        marks = self.services.store.outbox.marks
        while quiet < 3:
            quiet = 0 if await self._busy() else quiet + 1
            if loop.time() > deadline:
                raise TimeoutError("the bot did not settle")
            self.services.outbox_ready.set()
            if marks.waiting:
                marks.flush()
            await asyncio.sleep(0.001)

    async def _busy(self) -> bool:
        """Whether the bot has something under way that is not asleep on a limit."""
        assert self.app is not None and self.sending is not None and self.asking is not None
        now = self.services.now()
        # A wait about to end counts as under way: its sleeper wakes before the next look.
        soon = now.timestamp() + WAKING
        held = {chat for _, chat in self.sending.asleep(soon)}
        asleep = len(self.asking.asleep(soon))  # handlers' calls waiting
        owed = await self.services.store.db.run_read(owed_by_chat, now)
        world = self.server.world
        waiting = getattr(self.app.update_processor, "waiting", 0)  # behind one of its chat
        return bool(
            (world.updates and not asleep)  # given to the bot, not yet confirmed
            or self.began < world.next_update_id - 1  # not yet handed to a handler
            or self.in_flight > asleep
            or (waiting and not asleep)
            or not self.app.update_queue.empty()
            or any(chat not in held for chat in owed)
            or self.services.store.taking_in  # a game's end taken into the ratings
            or self.services.following_up  # its story and achievements composed
        )

    async def advance(self, by: timedelta) -> None:
        """Move the clock as real time would: each deadline runs at its moment, in order."""
        await self.advance_to(self.clock.moment + by)

    async def advance_to(self, target: datetime) -> None:
        """The clock moved to `target`, through every deadline and every wake-up of a
        delivery on the way, each at its moment."""
        while (due := await self.next_deadline()) is not None and due <= target:
            woken = await self.next_wake()
            if woken is not None and woken < due:
                await self._wake(woken)
                continue
            self.clock.moment = due
            ran = await self.scheduler.sweep()
            await self.settle()
            if not ran:  # held by a lease (a failed run): its retry is not the demo's
                break
        while (woken := await self.next_wake()) is not None and woken <= target:
            await self._wake(woken)
        self.clock.moment = target

    async def step(self) -> bool:
        """Something owed is on its way (asleep on a limit, or to be tried again): the clock
        moves to its moment (running a deadline due before it); False when nothing is."""
        woken = await self.next_wake(scheduled=False)
        if woken is None:
            return False
        due = await self.next_deadline()
        await self.advance_to(min(woken, due) if due is not None else woken)
        return True

    async def _wake(self, moment: datetime) -> None:
        """The clock at `moment` (if not past it), the bot settled, its sleepers up to then
        woken."""
        assert self.sending is not None and self.asking is not None
        self.clock.moment = moment
        await self.settle()
        for watched in (self.sending, self.asking):
            watched.forget(moment.timestamp())

    async def next_wake(self, *, scheduled: bool = True) -> datetime | None:
        """When the next delivery asleep on a limit, or owed, may go (perhaps now: its
        sleeper is yet to wake, its row is yet to be claimed; None: none); with `scheduled`
        False, not counting messages scheduled for later."""
        assert self.sending is not None and self.asking is not None
        now = self.services.now()
        held = {chat for _, chat in self.sending.asleep(now.timestamp())}
        ends = [w.next_end() for w in (self.sending, self.asking)]
        found = [datetime.fromtimestamp(end, UTC) for end in ends if end is not None]
        owed = await self.services.store.db.run_read(owed_next, now, scheduled)
        found += [due for chat, due in owed.items() if due > now or chat not in held]
        return min(found, default=None)

    async def next_deadline(self) -> datetime | None:
        """When the earliest pending deadline falls due (None: there is none)."""
        upcoming = await self.services.store.deadlines.upcoming(limit=1)
        return upcoming[0].due_at if upcoming else None

    async def run_due(self, until: datetime) -> None:
        """Every deadline up to `until`, each at its own moment."""
        await self.advance_to(max(until, self.clock.moment))
