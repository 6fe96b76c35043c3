"""Service benchmark: the real `whodunit run` process end to end, against a bare echo bot.

    .venv/bin/python -m bench.service [--games 50] [--rounds 2] [--backends sqlite,postgresql]
        [--concurrency 1,64] [--running-games 0] [--repeats 3] [--real-limits] [--echo-only]
        [--modes polling,webhook1,webhook2] [--limiter default|redis|local] [--against PATH]

The fake Bot API (`python -m fakebot --no-collector`) runs in its own process (one for
the echo bot, one for each configuration below); so does the bot
(`bench.counted_run`: `whodunit run` with its database transactions counted), so the bot's
CPU time is read from /proc/<pid>/stat alone. Telegram's limits are lifted (WHODUNIT_*
rates and flood limits set very high).

For each backend (a fresh SQLite file, or a fresh PostgreSQL database on 127.0.0.1:5432
dropped afterwards) and each `--running-games` count (that many started games, each with an
unanswered suggestion, stored before the bot starts): `--games` groups of 4–6 players set
up through the bot (/settings, /newgame, Join presses, Start), then for each
`--concurrency`: `--rounds` rounds of two interleaved streams per group (player 0 suggests
to 1, player 2 to 3: a typed /suggest, then the target's answer press), with at most that
many updates outstanding. First, on a fake of its own, a bare python-telegram-bot echo bot
(`bench.echo_bot`) gets as many private messages at each concurrency.

The configurations (each backend with each `--running-games` count in each mode) are all
set up first, then take turns (bench.service_turns): each phase runs `--repeats` times, every
configuration once in each turn, so the machine's drift over minutes falls on all of them
alike, the backends included ("postgresql against sqlite" compares them, same turns).
Before the first turn, set-up's writes are settled (VACUUM ANALYZE and a CHECKPOINT on
PostgreSQL, then sync): else the first turn paid for them. Each
configuration's figures pool its turns (each turn's updates per second follow
"turns" under its line), and a line compares it with the fewest running games.

Printed per phase: updates per second; p50/p95/p99 from an update (the moment the person
acted) to its last message (the latest message of the bot to the stream's private chats
before its next update, at least the awaited one: the target's prompt, the suggester's
"shows you"; the times are the fake's); bot CPU per update (ms) and the share of one core
(and the shares of the fake and of this driver: near 100% the instrument, not the bot,
sets the pace);
database transactions per update (counted in the bot by a SQLAlchemy `begin` event on both
backends; on PostgreSQL also `pg_stat_database.xact_commit`, read after the 10 s stats flush,
all sessions of that database); and the game/echo ratio of updates per second.
Then a phase paced at half the highest rate measured (updates sent at a steady rate, open
loop, not waiting for each other): its p99 is what a player sees at a busy but unsaturated
bot (`--no-half-peak` leaves it out). `--real-limits` adds a phase at the highest
concurrency with Telegram's real limits (the bot restarted with the defaults; the first
message to each person and group after the restart reads them once), the same phase again
(all of them known), then the bot's share of one core in the 10 s after the last update
(what it sent then, held back by the limits, and what waiting costs).

`--modes` (default `polling`): `polling` is one `whodunit run` taking updates by long
polling; `webhook1` one worker in webhook mode and `webhook2` two, on one database, behind
the round-robin proxy `bench.proxy` (its own process; webhook1 goes through it too, so the
two differ only in the workers); the fake posts each update to the proxy with the secret
token. Every mode gets a fresh database and its own groups. The CPU per update is summed
over the workers. Under each line, "(busy: ...)": each worker's and the proxy's share of a
core (webhook modes), PostgreSQL's server processes' (on PostgreSQL; every session on the
server, other users' too), and how busy the whole machine was ("machine 190/200%": every
process on all cores, other users' too; near the top, the figures say more about the
machine than about the bot). At the end, the 2-worker/1-worker ratio of updates per second
for each backend and concurrency measured in both. Workers share the send limiter as the
bot does by default (on PostgreSQL: each its own until it sees the other alive, then
through PostgreSQL; two SQLite workers on one file each limit on their own), or through
Redis (`--limiter redis`, `--redis-url`), or each process alone (`--limiter local`:
WHODUNIT_SHARED_LIMITER=false, right for one process only); the limits are lifted, but
sharing them still costs a round trip per send. The echo bot polls in every mode.

`--against PATH` (a checkout of other code, say `git worktree add /tmp/old <commit>`):
every configuration is set up twice, once with the bot of this checkout and once with the
bot run from PATH's code (the same driver, fake and venv), and the two take the same turns;
then, for each configuration, "this code against PATH": updates per second, bot CPU per
update, p50 and p99 of both. Before and after a change, same run, same minutes.

To see where time goes (bench.counted_run): BENCH_TX_SITES=PATH and BENCH_STATEMENTS=PATH
(transactions and statements per update, per phase), BENCH_GC=PATH (the pauses of the
collector's older generations), BENCH_LATENCIES=PATH (each update's latency, and the fake's
calls, per phase), BENCH_STALLS=PATH (each event-loop callback and database job that ran
long: bench.stalls), BENCH_SLOW=PATH (every callback and database job over 5 ms, its wall
against its thread's CPU); the bot of each configuration writes its own files (PATH.<tag>).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path

from bench.postgres import fresh_database, settle
from bench.service_compare import compare_backends, compare_running, compare_trees, scaling
from bench.service_figures import Figures, pooled
from bench.service_measure import held_back_cost, measure, waiting_cost
from bench.service_play import (
    Timeline,
    echo_rounds,
    play_rounds,
)
from bench.service_procs import (
    MODES,
    TOKEN,
    Bot,
    Service,
)
from bench.service_turns import (
    INSTRUMENT,
    Stage,
    open_stage,
    start_bot,
    take_turns,
)
from fakebot import FakeTelegramClient


async def echo_phases(
    fake: FakeTelegramClient, args: argparse.Namespace, folder: Path
) -> dict[int, Figures]:
    """The echo bot at each concurrency, as many updates as a game phase."""
    streams = 2 * args.games
    people = [await fake.add_user(f"E{n}", username=f"e{n}") for n in range(streams)]
    env = {k: v for k, v in os.environ.items() if not k.startswith("WHODUNIT_")}
    echo_bot = await Bot.start(
        fake, ["bench.echo_bot", fake.base_url, TOKEN], env, folder / "echo.log"
    )
    bot = Service([echo_bot])
    results = {}
    try:
        for person in people:
            await person.start_bot()
        await asyncio.sleep(1.0)
        for c in args.concurrency:
            timeline = Timeline()
            drive = echo_rounds(people, 2 * args.rounds, c, timeline)
            results[c] = await measure(f"echo, {c} at a time", fake, bot, drive, timeline)
            print(results[c].line(None), flush=True)
    finally:
        await bot.stop()
    return results


LIMITERS: dict[str, Callable[[argparse.Namespace], dict[str, str]]] = {  # --limiter
    "default": lambda args: {},
    "redis": lambda args: {"WHODUNIT_REDIS_URL": args.redis_url},
    "local": lambda args: {"WHODUNIT_SHARED_LIMITER": "false"},
}


async def all_runs(
    args: argparse.Namespace,
    folder: Path,
    backends: list[str],
    echo: dict[int, Figures],
    results: dict[tuple[str, int, str, int], Figures],
) -> None:
    """Set up every configuration of every backend, let them all take turns at each phase
    (so the backends meet the same minutes of the machine too), print each one's pooled
    figures, the comparisons with the fewest running games and between the backends, then
    the phases run once (real limits)."""
    async with contextlib.AsyncExitStack() as stack:
        stages: list[Stage] = []
        trees = [None] if args.against is None else [None, args.against]
        for backend in backends:
            for running in args.running_games:
                for mode in args.modes:
                    for tree in trees:
                        if backend == "sqlite":
                            name = f"bench-{running}-{uuid.uuid4().hex[:6]}.db"
                            url = f"sqlite:///{folder}/{name}"
                        else:
                            url = await stack.enter_async_context(fresh_database())
                        extra = LIMITERS[args.limiter](args)
                        stage = await open_stage(
                            stack, args, folder, backend, url, running, mode, extra, tree
                        )
                        stages.append(stage)

        async def phase(
            stage: Stage, label: str, drive: Awaitable[None], t: Timeline, turn: int
        ) -> Figures:
            assert stage.bot is not None
            files = f"{stage.files}turn {turn + 1} "
            return await measure(
                label, stage.fake, stage.bot, drive, t, stage.pg_url, files, stage.tag
            )

        t0 = time.perf_counter()  # set-up's writes flushed now, not in the first turn
        await settle([stage.url for stage in stages if stage.backend == "postgresql"])
        os.sync()
        print(f"(set-up's writes settled in {time.perf_counter() - t0:.0f} s)", flush=True)
        await take_turns(stages, args, phase)
        if args.repeats > 1:
            print(f"each phase {args.repeats} times, all the configurations in turn:")
        for stage in stages:
            print(stage.heading, flush=True)
            for label, turns in stage.turns.items():
                figures = pooled(turns)
                c = int(label.split()[1]) if label.endswith("at a time") else None
                if c is not None and stage.against is None:
                    results[(stage.backend, stage.running, stage.mode, c)] = figures
                print(figures.line(echo.get(c) if c is not None else None), flush=True)
        ours = [s for s in stages if s.against is None]
        for backend in backends:
            compare_running(backend, [s for s in ours if s.backend == backend])
        compare_backends(ours)
        compare_trees(stages)
        if args.real_limits:
            for stage in stages:
                print(f"{stage.backend}, {stage.running} running games, real limits:", flush=True)
                await real_limits(stack, args, stage, echo)


async def real_limits(
    stack: contextlib.AsyncExitStack,
    args: argparse.Namespace,
    stage: Stage,
    echo: dict[int, Figures],
) -> None:
    """The bot restarted with Telegram's real limits: the busiest phase twice (right after
    the restart, then with everyone known), what waiting costs, and a flood of /rules."""
    assert stage.bot is not None
    await stage.bot.stop()
    await start_bot(stack, stage, real_limits=True)
    bot = stage.bot
    c = max(args.concurrency)
    for label in (f"real limits, {c} at a time", f"real limits, {c} at a time, again"):
        timeline = Timeline()
        drive = play_rounds(stage.clubs, args.rounds, c, timeline)
        figures = await measure(
            label, stage.fake, bot, drive, timeline, files=stage.files, tag=stage.tag
        )
        print(figures.line(echo.get(c)), flush=True)
    await waiting_cost(stage.fake, bot)
    await held_back_cost(stage.fake, stage.clubs, bot)


def numbers(text: str) -> list[int]:
    return [int(x) for x in text.split(",") if x]


def checkout(text: str) -> Path:
    tree = Path(text).resolve()
    if not (tree / "bench" / "counted_run.py").is_file():
        raise argparse.ArgumentTypeError(f"{tree} is not a checkout of this project")
    return tree


def modes(text: str) -> list[str]:
    chosen = [x for x in text.split(",") if x]
    unknown = [x for x in chosen if x not in MODES]
    if unknown or not chosen:
        raise argparse.ArgumentTypeError(f"modes are {', '.join(MODES)}; not {unknown}")
    return chosen


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bench.service",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=2, help="per stream and concurrency")
    parser.add_argument("--backends", default="sqlite,postgresql")
    parser.add_argument("--concurrency", type=numbers, default=[1, 64])
    parser.add_argument("--running-games", type=numbers, default=[0])
    parser.add_argument("--modes", type=modes, default=["polling"], help=",".join(MODES))
    parser.add_argument("--limiter", choices=LIMITERS, default="default")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/0")
    parser.add_argument("--real-limits", action="store_true")
    parser.add_argument(
        "--no-half-peak",
        dest="half_peak",
        action="store_false",
        help="leave out the phase paced at half the peak rate (p99 at a steady load)",
    )
    parser.add_argument(
        "--repeats",
        type=int,
        default=3,
        help="times each phase runs, the configurations of a backend in turn (pooled)",
    )
    parser.add_argument("--echo-only", action="store_true")
    parser.add_argument(
        "--against",
        type=checkout,
        help="a checkout of other code (say a `git worktree` of an older commit): its bot"
        " also runs every configuration, in the same turns, and the two are compared",
    )
    return parser.parse_args(argv)


async def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    print(
        f"{os.cpu_count()} CPUs; {args.games} groups of 4-6, 2 streams each, {args.rounds}"
        " rounds (a suggestion and its answer press) per stream and concurrency",
        flush=True,
    )
    fake = await FakeTelegramClient.launch(TOKEN, extra_args=INSTRUMENT)
    results: dict[tuple[str, int, str, int], Figures] = {}
    try:
        with tempfile.TemporaryDirectory() as name:
            folder = Path(name)
            echo = await echo_phases(fake, args, folder)
            if not args.echo_only:
                await all_runs(args, folder, args.backends.split(","), echo, results)
            scaling(results)
    finally:
        await fake.aclose()


if __name__ == "__main__":
    asyncio.run(main())
