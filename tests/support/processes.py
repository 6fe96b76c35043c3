"""Running the real `whodunit run` in its own process, for process-level tests."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

from fakebot import FakeTelegramClient, RemoteGroup, RemoteUser

REPO_ROOT = Path(__file__).resolve().parents[2]


def whodunit_command() -> list[str]:
    """The installed console script if there is one, else the module."""
    script = Path(sys.executable).parent / "whodunit"
    return [str(script)] if script.exists() else [sys.executable, "-m", "bot.cli"]


def bot_env(token: str | None, api_url: str, database_url: str, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("WHODUNIT_")}
    env.update(WHODUNIT_TELEGRAM_API_URL=api_url, WHODUNIT_DATABASE_URL=database_url, **extra)
    if token is not None:
        env["WHODUNIT_BOT_TOKEN"] = token
    return env


async def start_bot(env: dict[str, str], cwd: Path) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        *whodunit_command(),
        "run",
        env=env,
        cwd=cwd,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )


async def stop_bot(process: asyncio.subprocess.Process, sig: int = signal.SIGTERM) -> str:
    """Stop the process and return what it printed."""
    if process.returncode is None:
        process.send_signal(sig)
    try:
        output, _ = await asyncio.wait_for(process.communicate(), 20)
    except TimeoutError:
        process.kill()
        output, _ = await process.communicate()
    return output.decode(errors="replace") if output else ""


async def club_of_three(
    fake: FakeTelegramClient, *, bot_admin: bool = False
) -> tuple[RemoteUser, RemoteUser, RemoteUser, RemoteGroup]:
    """Alice (admin), Bob and Carol in the group "Club", each having started the bot."""
    alice = await fake.add_user("Alice", username="alice")
    bob = await fake.add_user("Bob", username="bob")
    carol = await fake.add_user("Carol", username="carol")
    group = await fake.add_group("Club", admins=[alice], members=[bob, carol], bot_admin=bot_admin)
    for person in (alice, bob, carol):
        await person.start_bot()
    return alice, bob, carol, group
