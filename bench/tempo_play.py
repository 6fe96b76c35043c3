"""One game of bench/tempo: the demo's stage (bot/demo) with Telegram's real limits, on a
clock that skips the time nobody acts in (bot/demo/clock.py `LoopClock`), every seat a
computer detective whose person acts at a pace; what the game left behind (the fake Bot
API's calls, the outbox, the event log, the people's presses) kept for bench/tempo_figures.
"""

from __future__ import annotations

import asyncio
import os
import random
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Connection

from bot.demo.clock import LoopClock, SkippingLoop
from bot.demo.forum import ForumHands
from bot.demo.hands import Hands
from bot.demo.liars import LiarsHands
from bot.demo.lobby import open_game, seeds_from
from bot.demo.options import Options
from bot.demo.play import play_rounds, seat
from bot.demo.scene import Found, Pace, Scene
from bot.demo.stage import Stage
from bot.demo.table import TableHands
from engine.events import Event
from fakebot import ApiCall, CallbackAnswer, FakeUser
from storage.models import EventRecord, OutboxRecord
from storage.sql import loads

PACES = {"people": (3.0, 8.0), "brisk": (1.0, 3.0)}  # seconds from seeing to acting
DRAIN_STEPS = 5000  # wake-ups at most after the game, for what is still on its way
KEEP_DAYS = 365.0  # the outbox keeps every row of the game (a forum game lasts days)


def hands_of(format_key: str) -> Hands:
    """Each format's hands, the board as pictures (the bot's default, unlike the demo's)."""
    if format_key == "forum":
        return ForumHands()
    if format_key == "liars":
        return LiarsHands(pictures=True)
    return TableHands(pictures=True)


@dataclass(frozen=True)
class Spec:
    """A game to play: its format, seats, pace (a key of PACES) and seed."""

    format: str
    players: int
    pace: str
    seed: int


@dataclass(frozen=True)
class Act:
    """A person's act: their chat, the button's data (None: typed), when they acted and
    since when they could see what they acted on (the call of the fake's log that showed
    it: `shown`, its index; None when typed on nothing of the bot's)."""

    person: int
    chat: int
    data: str | None
    at: float
    seen: float
    shown: int | None


@dataclass(frozen=True)
class Row:
    """An outbox row of the game: its key, chat, whether an edit (and of which row's
    message), status, and when it was written, sent and as which message."""

    key: str
    chat: int
    edit: bool
    target: str | None
    status: str
    created: float
    sent: float | None
    message: int | None


@dataclass
class Played:
    """What one game left: every call the bot made (with its moment on the game's clock),
    the outbox rows, the events (seq, type, moment), the acts and the toasts' delays."""

    spec: Spec
    group: int
    calls: list[tuple[float, ApiCall]] = field(default_factory=list)
    rows: list[Row] = field(default_factory=list)
    events: list[tuple[int, str, float]] = field(default_factory=list)
    log: list[Event] = field(default_factory=list)  # the events themselves, seq 1 first
    acts: list[Act] = field(default_factory=list)
    toasts: list[float] = field(default_factory=list)
    wall: float = 0.0  # seconds of real time the game took


class PeoplesPace(Pace):
    """A person acts a random `low`–`high` seconds after they could see what they act on:
    the button's message since it carries that button, or the newest message of the chat
    they type in. Records each act and how long each press waited for its toast."""

    def __init__(self, clock: LoopClock, low: float, high: float, seed: int) -> None:
        self.clock = clock
        self.low, self.high = low, high
        self.rng = random.Random(seed)
        self.acts: list[Act] = []
        self.toasts: list[float] = []
        self.pressed: dict[int, float] = {}  # id(found) -> when pressed

    async def before(self, scene: Scene, person: FakeUser, chat: int, found: Found | None) -> None:
        now = self.clock.now().timestamp()
        if found is not None:
            version = scene.shown.since((chat, found.message.message_id), found.data)
        else:
            version = scene.shown.last(chat)
        seen = self.clock.at(version.call.at) if version is not None else now
        when = max(now, seen + self.rng.uniform(self.low, self.high))
        await scene.stage.advance_to(datetime.fromtimestamp(when, UTC))
        at = self.clock.now().timestamp()
        shown = version.index if version is not None else None
        data = found.data if found is not None else None
        self.acts.append(Act(person.id, chat, data, at, seen, shown))
        if found is not None:
            self.pressed[id(found)] = at

    def answered(self, person: FakeUser, found: Found, answer: CallbackAnswer) -> None:
        pressed = self.pressed.pop(id(found), None)
        if pressed is not None and answer.answered:
            self.toasts.append(self.clock.now().timestamp() - pressed)


def play(spec: Spec) -> Played:
    """The game played on a skipping event loop of its own."""
    with asyncio.Runner(loop_factory=SkippingLoop) as runner:
        return runner.run(play_game(spec))


async def play_game(spec: Spec) -> Played:
    """`play` in a running SkippingLoop."""
    loop = asyncio.get_running_loop()
    if not isinstance(loop, SkippingLoop):
        raise RuntimeError("bench.tempo runs on a SkippingLoop (bot/demo/clock.py)")
    started = loop.time() - loop.skipped
    clock = LoopClock(loop)
    settings = {"outbox_keep_days": KEEP_DAYS}
    stage = Stage(clock, telegram_limits=True, settings=settings, seeds=seeds_from(spec.seed))
    low, high = PACES[spec.pace]
    pace = PeoplesPace(clock, low, high, spec.seed)
    hands = hands_of(spec.format)
    with open(os.devnull, "w") as quiet:
        try:
            await stage.start()
            options = Options(format=spec.format, players=spec.players, seed=spec.seed)
            scene = seat(stage, options, quiet)
            scene.pace = pace
            await open_game(scene, hands, spec.format)
            await play_rounds(scene, hands, timedelta(0))
            for _ in range(DRAIN_STEPS):  # what is still on its way (the end, the story)
                if not await stage.step():
                    break
            await scene.done()
            played = await _collected(stage, clock, spec, scene)
        finally:
            await stage.stop()
    played.acts, played.toasts = pace.acts, pace.toasts
    played.wall = loop.time() - loop.skipped - started
    return played


async def _collected(stage: Stage, clock: LoopClock, spec: Spec, scene: Scene) -> Played:
    db = stage.services.store.db
    played = Played(spec, scene.group.id)
    played.calls = [(clock.at(call.at), call) for call in stage.server.calls]
    played.rows = await db.run_read(_rows)
    played.events = await db.run_read(_events, scene.game_id)
    played.log = await stage.services.store.events(scene.game_id)
    return played


def _rows(conn: Connection) -> list[Row]:
    o = OutboxRecord
    query = select(
        o.key, o.chat_id, o.payload, o.status, o.created_at, o.sent_at, o.sent_message_id
    )
    found = []
    for key, chat, payload, status, created, sent, message in conn.execute(query).all():
        body: dict[str, Any] = loads(payload)
        edit = body.get("op") == "edit"
        target = body.get("target") if edit else None
        moment = sent.timestamp() if sent is not None else None
        row = Row(key, chat, edit, target, status, created.timestamp(), moment, message)
        found.append(row)
    return found


def _events(conn: Connection, game_id: int) -> list[tuple[int, str, float]]:
    e = EventRecord
    query = select(e.seq, e.type, e.recorded_at).where(e.game_id == game_id).order_by(e.seq)
    return [(seq, kind, at.timestamp()) for seq, kind, at in conn.execute(query).all()]
