"""Measuring one phase of bench.service: the bot's CPU, the fake's and this driver's, the
latencies, the transactions per update (the bot's own count, bench.counted_run, and on
PostgreSQL the server's), and the BENCH_* files of the phase; and the costs of waiting on
Telegram's limits."""

from __future__ import annotations

import asyncio
import gc
import json
import os
import time
from collections.abc import Awaitable
from pathlib import Path
from typing import Any

import asyncpg
from sqlalchemy.engine import make_url

from bench.postgres import PG_URL, plain_dsn
from bench.service_figures import Figures
from bench.service_play import Club, Timeline, last_messages
from bench.service_procs import Service, cpu_seconds, machine_busy, postgres_cpu
from fakebot import FakeTelegramClient


async def xact_commit(url: str) -> int:
    name = make_url(url).database
    conn = await asyncpg.connect(plain_dsn(PG_URL), timeout=5)
    try:
        sql = "SELECT xact_commit FROM pg_stat_database WHERE datname = $1"
        return int(await conn.fetchval(sql, name))
    finally:
        await conn.close()


def _bot_file(key: str, tag: str) -> str | None:
    """Where the bot of configuration `tag` writes the BENCH_* file `key` (bench.counted_run)."""
    path = os.environ.get(key)
    return f"{path}.{tag}" if path and tag else path


def tx_sites(tag: str = "") -> dict[str, tuple[int, float]]:
    """BENCH_TX_SITES's counts and total milliseconds by site (and BENCH_STATEMENTS's counts
    by statement), as the bot of configuration `tag` wrote them last."""
    sites = {}
    path = _bot_file("BENCH_TX_SITES", tag)
    if path and os.path.exists(path):
        for line in Path(path).read_text().splitlines():
            count, mean, _ms, site = line.split(maxsplit=3)
            sites[site] = (int(count), int(count) * float(mean))
    path = _bot_file("BENCH_STATEMENTS", tag)
    if path and os.path.exists(path):
        for line in Path(path).read_text().splitlines():
            count, statement = line.split(maxsplit=1)
            sites[f"SQL {statement}"] = (int(count), 0.0)
    return sites


def write_phase_sites(
    label: str, before: dict[str, tuple[int, float]], after: dict[str, tuple[int, float]], n: int
) -> None:
    """The transactions of one phase, per update, by site: BENCH_TX_SITES.<label>."""
    if not after:
        return
    rows = []
    for site, (count, total) in after.items():
        count0, total0 = before.get(site, (0, 0.0))
        if count > count0:
            per, mean = (count - count0) / n, (total - total0) / (count - count0)
            rows.append((per, f"{per:5.2f}/upd {mean:7.2f} ms {site}"))
    name = "".join(c if c.isalnum() else "_" for c in label)
    text = "\n".join(line for _, line in sorted(rows, reverse=True))
    path = os.environ.get("BENCH_TX_SITES") or os.environ["BENCH_STATEMENTS"]
    Path(f"{path}.{name}").write_text(text + "\n")


def _dump_latencies(label: str, timeline: Timeline, calls: list[dict[str, Any]]) -> None:
    """BENCH_LATENCIES=PATH: each update of the phase (sent at, ms to the awaited and to
    the last message, that message's method and text) to PATH.<label>, to see what waited;
    the fake's calls of the phase (received and answered at) to PATH.<label>.calls (JSON)."""
    at = {round(c["at"], 6): c for c in calls}
    name = "".join(c if c.isalnum() else "_" for c in label)
    lines = []
    for u in timeline.updates:
        last = at.get(round(u.last, 6), {})
        text = str(last.get("params", {}).get("text", ""))[:40].replace("\n", " ")
        lines.append(
            f"{u.sent:.3f} {1000 * (u.awaited - u.sent):7.1f} {1000 * (u.last - u.sent):7.1f}"
            f" {last.get('method', '?')} {text}"
        )
    Path(f"{os.environ['BENCH_LATENCIES']}.{name}").write_text("\n".join(lines) + "\n")
    kept = ("method", "received", "at", "params", "response")  # what the bot sent, and when
    trace = [{key: call[key] for key in kept} for call in calls]
    Path(f"{os.environ['BENCH_LATENCIES']}.{name}.calls").write_text(json.dumps(trace))


async def measure(
    label: str,
    fake: FakeTelegramClient,
    bot: Service,
    drive: Awaitable[None],
    timeline: Timeline,
    pg_url: str | None = None,
    files: str = "",
    tag: str = "",
) -> Figures:
    """Run `drive` (an awaitable), then read the figures of the phase (`files`: what the
    phase's BENCH_* files are named by, besides `label`; `tag`: the bot's, bench.counted_run)."""
    began = time.time()
    assert fake.process is not None
    cpus0, tx0 = bot.cpus(), bot.transactions() if bot.counts else 0
    proxy0 = bot.proxy_cpu()
    fake0, driver0 = cpu_seconds(fake.process.pid), cpu_seconds(os.getpid())
    pg0 = await xact_commit(pg_url) if pg_url else 0
    db0 = postgres_cpu() if pg_url else {}
    machine0 = machine_busy()
    sites0 = tx_sites(tag)
    gc.disable()  # a pause here would send the paced updates late, then in a burst
    try:
        await drive
    finally:
        gc.enable()
    ended = max(u.awaited for u in timeline.updates)
    await asyncio.sleep(0.5)  # trailing messages
    cpus = [now - then for now, then in zip(bot.cpus(), cpus0, strict=True)]
    fake_cpu = cpu_seconds(fake.process.pid) - fake0
    driver_cpu = cpu_seconds(os.getpid()) - driver0
    proxy, machine = bot.proxy_cpu(), machine_busy()
    db = {pid: cpu - db0.get(pid, 0.0) for pid, cpu in postgres_cpu().items()} if pg_url else {}
    calls = await fake.calls(since=began)
    last_messages(timeline, calls)
    if os.environ.get("BENCH_LATENCIES"):
        _dump_latencies(files + label, timeline, calls)
    n = len(timeline.updates)
    figures = Figures(
        label, n, ended - began, timeline.latencies(), sum(cpus), fake_cpu, driver_cpu
    )
    if proxy is not None and proxy0 is not None:
        figures.worker_cpus, figures.proxy_cpu = cpus, proxy - proxy0
    figures.machine = (machine[0] - machine0[0]) / max(1e-9, machine[1] - machine0[1])
    if pg_url:
        figures.db_cpu = sum(db.values())
    if bot.counts:
        await asyncio.sleep(0.3)
        figures.transactions = (bot.transactions() - tx0) / n
        write_phase_sites(files + label, sites0, tx_sites(tag), n)
    if pg_url:
        await asyncio.sleep(11)  # PostgreSQL 15 flushes an idle session's statistics in 10 s
        figures.pg_commits = (await xact_commit(pg_url) - pg0) / n
    return figures


async def waiting_cost(fake: FakeTelegramClient, bot: Service, seconds: float = 10.0) -> None:
    """The bot's CPU share in the `seconds` after the last awaited message, while it sends
    what the limits held back (and then idles), and how many messages it sent then."""
    began, cpu0 = time.time(), bot.cpu()
    await asyncio.sleep(seconds)
    cpu = bot.cpu() - cpu0
    sent = [c for c in await fake.calls(since=began) if c["method"] != "getUpdates"]
    print(
        f"  then {seconds:.0f} s with no updates: {len(sent)} Bot API calls,"
        f" bot CPU {100 * cpu / seconds:.1f}% of a core",
        flush=True,
    )


async def held_back_cost(
    fake: FakeTelegramClient, clubs: list[Club], bot: Service, seconds: float = 70.0
) -> None:
    """Every player of every group asks /rules four times at once: more posts than a
    group's 20 a minute, so most wait on Telegram's limits. Once the bot has read them all,
    its CPU in 5-second steps over `seconds`: while it sends what the limits allow, and in
    the steps where it sends nothing and only waits for the groups' windows to move on."""
    began = time.time()
    await asyncio.gather(
        *(
            player.send(club.group, "/rules")
            for club in clubs
            for player in club.players
            for _ in range(4)
        )
    )
    asked = sum(4 * len(club.players) for club in clubs)
    await asyncio.sleep(3.0)  # the updates read and handled; their answers queued
    steps: list[tuple[float, float, float]] = []  # (start, end, CPU seconds)
    for _ in range(int(seconds // 5)):
        start, cpu0 = time.time(), bot.cpu()
        await asyncio.sleep(5.0)
        steps.append((start, time.time(), bot.cpu() - cpu0))
    calls = await fake.calls(since=began)
    posts = [c["at"] for c in calls if c["method"] == "sendMessage" and "📜" in str(c["params"])]
    waiting = [cpu / (end - start) for start, end, cpu in steps if not _any_in(posts, start, end)]
    sending = [(cpu, _count_in(posts, start, end)) for start, end, cpu in steps]
    sent = sum(n for _, n in sending)
    per_send = sum(cpu for cpu, n in sending if n) / max(1, sent)
    only_waiting = f"{100 * max(waiting):.1f}%" if waiting else "none (it sent all along)"
    print(
        f"  {asked} /rules at once in {len(clubs)} groups: {len(posts)} answered in"
        f" {3 + seconds:.0f} s, {asked - len(posts)} still held back; bot CPU"
        f" {1000 * per_send:.1f} ms per answer sent, and in the 5 s steps with nothing"
        f" sent ({len(waiting)} of {len(steps)}), at most {only_waiting} of a core",
        flush=True,
    )


def _count_in(moments: list[float], start: float, end: float) -> int:
    return sum(1 for moment in moments if start <= moment < end)


def _any_in(moments: list[float], start: float, end: float) -> bool:
    return _count_in(moments, start, end) > 0
