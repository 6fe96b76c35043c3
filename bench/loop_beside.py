"""How long an update waits while a worker thread works out notebooks: the forum's ten-seat
game of `bench.notebook` solved case by case (every cell's odds, from its middle on) in a
thread for a few seconds, beside an event loop handling a stand-in update (ten awaits of a
millisecond's timer, a little work after each, as an update's steps through the database
and Telegram), with nothing beside it, at Python's default switch interval and at the
bot's (bot/switching.py).

    python -m bench.loop_beside [--seconds 5]

Prints the stand-in update's p50 / p95 / max, and how many cases the thread solved.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import threading
import time

from bench.notebook import FORMATS
from bot.switching import SWITCH_SECONDS
from engine.notebook.facts import Case
from engine.notebook.observe import cases_over_time
from engine.notebook.solve import solve

STEPS = 10
DEFAULT_SWITCH = 0.005


async def _update() -> float:
    began = time.perf_counter()
    for _ in range(STEPS):
        await asyncio.sleep(0.001)
        sum(range(2_000))
    return time.perf_counter() - began


async def _measure(cases: list[Case], seconds: float, solver: bool) -> tuple[list[float], int]:
    stop = threading.Event()
    solved = 0

    def work() -> None:
        nonlocal solved
        for case in cases:
            if stop.is_set():
                return
            solve(case, odds=True)
            solved += 1

    thread = threading.Thread(target=work, daemon=True) if solver else None
    if thread is not None:
        thread.start()
    times: list[float] = []
    ends = time.perf_counter() + seconds
    while time.perf_counter() < ends:
        times.append(await _update())
    stop.set()
    if thread is not None:
        await asyncio.to_thread(thread.join)
    return times, solved


def _figures(times: list[float]) -> str:
    ms = sorted(t * 1000 for t in times)
    p95 = ms[int(len(ms) * 0.95)]
    return f"p50 {statistics.median(ms):.1f} / p95 {p95:.1f} / max {ms[-1]:.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    events, _ = FORMATS["forum"](0, 10)
    cases = [case for seat in range(10) for _, case in cases_over_time(events, seat)]
    cases = cases[len(cases) // 2 :] * 10
    runs = [("no thread beside", DEFAULT_SWITCH, False)]
    runs += [(f"switch {s * 1000:g} ms", s, True) for s in (DEFAULT_SWITCH, SWITCH_SECONDS)]
    for name, switch, solver in runs:
        sys.setswitchinterval(switch)
        times, solved = asyncio.run(_measure(cases, args.seconds, solver))
        print(f"{name:>18}: update {_figures(times)}; {len(times)} updates, {solved} cases solved")


if __name__ == "__main__":
    main()
