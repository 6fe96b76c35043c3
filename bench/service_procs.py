"""The bot's processes in `bench.service`: one polling `whodunit run`, or one or two webhook
workers behind the round-robin proxy (`bench.proxy`), each its own process so that the CPU
time of each is read from /proc/<pid>/stat alone."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp

from fakebot import FakeTelegramClient
from testbed.processes import REPO_ROOT, bot_env, free_port

TOKEN = "123:ABC"
SECRET = "bench-webhook-secret"
MODES = {"polling": 0, "webhook1": 1, "webhook2": 2}  # mode -> webhook workers
LIFTED = {
    name: "1000000"
    for name in (
        "WHODUNIT_GROUP_MESSAGES_PER_MINUTE",
        "WHODUNIT_MESSAGES_PER_SECOND",
        "WHODUNIT_PRIVATE_MESSAGES_PER_SECOND",
        "WHODUNIT_FLOOD_GROUP_LIMIT",
        "WHODUNIT_FLOOD_PRIVATE_LIMIT",
        "WHODUNIT_FLOOD_GROUP_SUSTAINED_LIMIT",
    )
}
TICK = os.sysconf("SC_CLK_TCK")
READY = 120.0  # seconds a process may take to start


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process, from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def machine_busy() -> tuple[float, float]:
    """Busy and total CPU seconds of the whole machine (all cores), from /proc/stat."""
    values = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = values[3] + values[4]  # idle, iowait
    return (sum(values[:8]) - idle) / TICK, sum(values[:8]) / TICK


def postgres_cpu() -> dict[int, float]:
    """CPU seconds of each PostgreSQL server process on this machine (every session of
    every database, other users' too), by pid."""
    found = {}
    for comm in Path("/proc").glob("[0-9]*/comm"):
        try:
            if comm.read_text().strip() == "postgres":
                found[int(comm.parent.name)] = cpu_seconds(int(comm.parent.name))
        except (OSError, ValueError):
            continue  # gone meanwhile
    return found


def resident_mb(pid: int) -> float:
    """VmRSS of a process in MB, from /proc."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise ValueError(f"no VmRSS for {pid}")


@dataclass
class Bot:
    """A bot process (whodunit or echo) and where it logs."""

    process: asyncio.subprocess.Process
    counts: Path | None = None

    @classmethod
    async def spawn(
        cls, args: list[str], env: dict[str, str], log: Path, tree: Path = REPO_ROOT
    ) -> Bot:
        """`python -m args` run from the code of `tree` (a checkout; this one by default)."""
        env = {**env, "PYTHONPATH": str(tree)}
        with log.open("ab") as out:
            process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", *args, env=env, cwd=tree, stdout=out, stderr=out
            )
        return cls(process)

    @classmethod
    async def start(
        cls,
        fake: FakeTelegramClient,
        args: list[str],
        env: dict[str, str],
        log: Path,
        tree: Path = REPO_ROOT,
    ) -> Bot:
        """Spawn a polling bot and wait until it has removed the webhook (it polls next)."""
        after = time.time()
        bot = await cls.spawn(args, env, log, tree)
        waiting = asyncio.ensure_future(
            fake.wait_call(after=after, method="deleteWebhook", timeout=READY)
        )
        exited = asyncio.ensure_future(bot.process.wait())
        await asyncio.wait([waiting, exited], return_when=asyncio.FIRST_COMPLETED)
        if not waiting.done():
            waiting.cancel()
            raise RuntimeError(f"{' '.join(args)} exited:\n{log.read_text()[-3000:]}")
        exited.cancel()
        waiting.result()
        return bot

    def cpu(self) -> float:
        return cpu_seconds(self.process.pid)

    def transactions(self) -> int:
        assert self.counts is not None
        return int(self.counts.read_text().split()[0]) if self.counts.exists() else 0

    async def stop(self) -> None:
        if self.process.returncode is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(self.process.wait(), 30)
            except TimeoutError:
                self.process.kill()
                await self.process.wait()


@dataclass
class Service:
    """The bot in one mode: its workers, and the proxy in front of webhook workers."""

    workers: list[Bot]
    proxy: Bot | None = None
    proxy_log: Path | None = None
    taken: dict[str, int] = field(default_factory=dict)  # updates each worker took

    @property
    def counts(self) -> bool:
        return all(w.counts is not None for w in self.workers)

    def cpu(self) -> float:
        """CPU seconds of all workers together."""
        return sum(self.cpus())

    def cpus(self) -> list[float]:
        return [w.cpu() for w in self.workers]

    def proxy_cpu(self) -> float | None:
        return self.proxy.cpu() if self.proxy else None

    def transactions(self) -> int:
        return sum(w.transactions() for w in self.workers)

    async def stop(self) -> None:
        await asyncio.gather(*(w.stop() for w in self.workers))
        if self.proxy is not None:
            await self.proxy.stop()
            assert self.proxy_log is not None
            lines = self.proxy_log.read_text().splitlines()
            taken = [x for x in lines if x.startswith("taken ")]
            if taken:
                self.taken = json.loads(taken[-1].split(" ", 1)[1])


def whodunit_env(
    fake: FakeTelegramClient, url: str, real_limits: bool, extra: dict[str, str] | None = None
) -> dict[str, str]:
    lifted = {} if real_limits else LIFTED
    return bot_env(
        TOKEN, fake.base_url, url, WHODUNIT_LOG_LEVEL="WARNING", **lifted, **(extra or {})
    )


async def start_whodunit(
    fake: FakeTelegramClient,
    url: str,
    folder: Path,
    real_limits: bool = False,
    extra: dict[str, str] | None = None,
    tree: Path = REPO_ROOT,
) -> Bot:
    """One polling `whodunit run` with its transactions counted (`bench.counted_run`)."""
    counts = folder / f"counts-{uuid.uuid4().hex[:6]}"
    bot = await Bot.start(
        fake,
        ["bench.counted_run", str(counts)],
        whodunit_env(fake, url, real_limits, extra),
        folder / "whodunit.log",
        tree,
    )
    bot.counts = counts
    return bot


async def _healthy(port: int, bot: Bot, log: Path) -> None:
    """Wait until a worker answers /healthz."""
    deadline = time.monotonic() + READY
    async with aiohttp.ClientSession() as session:
        while time.monotonic() < deadline:
            if bot.process.returncode is not None:
                raise RuntimeError(f"worker exited:\n{log.read_text()[-3000:]}")
            try:
                async with session.get(f"http://127.0.0.1:{port}/healthz") as answer:
                    if answer.status == 200:
                        return
            except aiohttp.ClientConnectionError:
                pass
            await asyncio.sleep(0.2)
    raise TimeoutError(f"worker on port {port} not ready:\n{log.read_text()[-3000:]}")


async def _proxy(ports: list[int], folder: Path) -> tuple[Bot, Path, int]:
    """Start `bench.proxy` in front of `ports`; it, its log, and its port."""
    port_file = folder / f"proxy-{uuid.uuid4().hex[:6]}.port"
    log = folder / f"{port_file.stem}.log"
    proxy = await Bot.spawn(
        ["bench.proxy", str(port_file), ",".join(map(str, ports))], dict(os.environ), log
    )
    deadline = time.monotonic() + READY
    while not port_file.exists():
        if proxy.process.returncode is not None or time.monotonic() > deadline:
            raise RuntimeError(f"proxy did not start:\n{log.read_text()}")
        await asyncio.sleep(0.1)
    return proxy, log, int(port_file.read_text())


async def start_service(
    fake: FakeTelegramClient,
    mode: str,
    url: str,
    folder: Path,
    real_limits: bool = False,
    extra: dict[str, str] | None = None,
    tree: Path = REPO_ROOT,
) -> Service:
    """The bot in `mode` from the code of `tree`: polling, or webhook workers (started one
    after the other, the first migrating the fresh database) behind the proxy, each having
    set the webhook."""
    count = MODES[mode]
    if count == 0:
        return Service([await start_whodunit(fake, url, folder, real_limits, extra, tree)])
    ports = [free_port() for _ in range(count)]
    proxy, proxy_log, proxy_port = await _proxy(ports, folder)
    service = Service([], proxy, proxy_log)
    hook = {
        "WHODUNIT_WEBHOOK_URL": f"http://127.0.0.1:{proxy_port}/telegram",
        "WHODUNIT_WEBHOOK_SECRET": SECRET,
        "WHODUNIT_WEBHOOK_MAX_CONNECTIONS": "100",
        "WHODUNIT_HTTP_HOST": "127.0.0.1",
    }
    try:
        for n, port in enumerate(ports):
            counts = folder / f"counts-{uuid.uuid4().hex[:6]}"
            env = whodunit_env(
                fake, url, real_limits, {**(extra or {}), **hook, "WHODUNIT_HTTP_PORT": str(port)}
            )
            after = time.time()
            log = folder / f"worker{n}.log"
            bot = await Bot.spawn(["bench.counted_run", str(counts)], env, log, tree)
            bot.counts = counts
            service.workers.append(bot)
            await _healthy(port, bot, log)
            await fake.wait_call(after=after, method="setWebhook", timeout=READY)
    except BaseException:
        await service.stop()
        raise
    return service
