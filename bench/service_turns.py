"""The game phases of `bench.service`, with the configurations taking turns.

The machine's speed drifts by ±15–25% over minutes (other tenants of the host), more than
the differences the figures are read for (5,000 running games against none, PostgreSQL
against SQLite). So every configuration (each backend, `--running-games` count and
`--modes` entry) is set up first, each with its bot and its groups on a fake Bot API of its
own, and then each phase runs `--repeats` times, the configurations one after the other in
every turn (in reverse order every other turn): drift falls on all of them alike. A
configuration's figures pool its turns (all updates, all latencies); its updates per second
in each turn are printed beside them, to show the spread.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

from bench.service_figures import Figures, pooled
from bench.service_play import Club, Timeline, paced_rounds, play_rounds
from bench.service_prefill import prefill
from bench.service_procs import TOKEN, Service, start_service
from fakebot import FakeTelegramClient
from storage.service import Store
from testbed.processes import REPO_ROOT

INSTRUMENT = ["--allow-http-webhooks", "--no-collector"]  # no pauses of the instrument
HEADINGS = {
    "polling": "",
    "webhook1": ", 1 webhook worker behind the proxy",
    "webhook2": ", 2 webhook workers behind the proxy",
}


@dataclass
class Stage:
    """One configuration: its database, its fake Bot API, its bot and its groups."""

    backend: str
    url: str
    running: int
    mode: str
    fake: FakeTelegramClient
    folder: Path
    extra: dict[str, str]
    against: Path | None = None  # the bot runs the code of this checkout, not this one's
    bot: Service | None = None
    clubs: list[Club] = field(default_factory=list)
    turns: dict[str, list[Figures]] = field(default_factory=dict)  # label -> each turn's

    @property
    def heading(self) -> str:
        code = f" (the code of {self.against})" if self.against else ""
        return (
            f"{self.backend}, {self.running} running games in the database"
            f"{HEADINGS[self.mode]}{code}:"
        )

    @property
    def files(self) -> str:
        """What the phase files of this configuration are named by."""
        return f"{self.backend} {self.running} {self.mode} {'against ' if self.against else ''}"

    @property
    def tag(self) -> str:
        """What the bot's own BENCH_* files of this configuration end with."""
        return f"{self.backend}-{self.running}-{self.mode}{'-against' if self.against else ''}"

    @property
    def pg_url(self) -> str | None:
        return self.url if self.backend == "postgresql" else None


async def open_stage(
    stack: contextlib.AsyncExitStack,
    args: argparse.Namespace,
    folder: Path,
    backend: str,
    url: str,
    running: int,
    mode: str,
    extra: dict[str, str],
    against: Path | None,
) -> Stage:
    """Pre-fill the database, start a fake and the bot on it, set up the groups."""
    fake = await FakeTelegramClient.launch(TOKEN, extra_args=INSTRUMENT)
    stack.push_async_callback(fake.aclose)
    stage = Stage(backend, url, running, mode, fake, folder, extra, against)
    print(stage.heading, flush=True)
    stage.folder = folder / stage.tag
    stage.folder.mkdir()
    t0 = time.perf_counter()
    await prefill(url, running)
    if running:
        print(f"  ({running} running games stored in {time.perf_counter() - t0:.0f} s)")
    await start_bot(stack, stage)
    tag = f"{backend[0]}{running}{mode[0]}{mode[-1]}"
    stage.clubs = [await Club.open(fake, f"{tag}g{n}", 4 + n % 3) for n in range(args.games)]
    bot = stage.bot
    assert bot is not None
    t0, cpu0 = time.perf_counter(), bot.cpu()
    await asyncio.gather(*(club.set_up() for club in stage.clubs))
    took = time.perf_counter() - t0
    print(
        f"  set-up of {args.games} games through the bot: {args.games / took:.2f} games/s,"
        f" {1000 * (bot.cpu() - cpu0) / args.games:.0f} ms bot CPU per game",
        flush=True,
    )
    store = await Store.open(url, migrate=False)
    try:
        for club in stage.clubs:
            ref = await store.game_for_chat(club.group.id, 0)
            assert ref is not None
            club.learn(await store.load(ref.id))
    finally:
        await store.close()
    return stage


async def start_bot(
    stack: contextlib.AsyncExitStack, stage: Stage, real_limits: bool = False
) -> None:
    """The stage's bot, stopped with the stack (or before, by a restart)."""
    extra = {**stage.extra, "BENCH_FILES_TAG": stage.tag}
    tree = stage.against or REPO_ROOT
    stage.bot = await start_service(
        stage.fake, stage.mode, stage.url, stage.folder, real_limits, extra, tree
    )
    stack.push_async_callback(_stop, stage.bot)


async def _stop(bot: Service) -> None:
    await bot.stop()
    if bot.taken:
        print(f"  updates each worker took (by port): {bot.taken}", flush=True)


Measure = Callable[[Stage, str, Awaitable[None], Timeline, int], Awaitable[Figures]]


async def take_turns(stages: list[Stage], args: argparse.Namespace, measure: Measure) -> None:
    """Each concurrency, then the paced phase, `args.repeats` times, the stages in turn."""
    for turn in range(args.repeats):
        for stage in in_turn(stages, turn):
            for c in args.concurrency:
                timeline = Timeline()
                drive = play_rounds(stage.clubs, args.rounds, c, timeline)
                label = f"game, {c} at a time"
                figures = await measure(stage, label, drive, timeline, turn)
                stage.turns.setdefault(label, []).append(figures)
    if not args.half_peak:
        return
    rates = {id(stage): half_peak(stage) for stage in stages}
    for turn in range(args.repeats):
        for stage in in_turn(stages, turn):
            rate = rates[id(stage)]
            timeline = Timeline()
            drive = paced_rounds(stage.clubs, args.rounds, rate, timeline)
            label = f"game, paced at half the peak ({rate:.0f}/s)"
            figures = await measure(stage, label, drive, timeline, turn)
            stage.turns.setdefault(label, []).append(figures)


def in_turn(stages: list[Stage], turn: int) -> list[Stage]:
    """The order of the configurations in a turn: reversed every other turn, so that none
    always follows the same one (a phase may leave work behind for the next: a checkpoint,
    a collection, the fake's log)."""
    return stages if turn % 2 == 0 else stages[::-1]


def half_peak(stage: Stage) -> float:
    """Half the highest rate of the stage's pooled concurrency phases."""
    turns = stage.turns.items()
    rates = [pooled(each).rate for label, each in turns if label.endswith("at a time")]
    return max(rates) / 2
