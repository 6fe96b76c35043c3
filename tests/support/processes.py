"""Running the real `whodunit run` in its own process, for process-level tests (its command
and environment are in testbed/processes.py)."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

from fakebot import FakeTelegramClient, RemoteGroup, RemoteUser
from testbed.processes import REPO_ROOT as REPO_ROOT
from testbed.processes import bot_env as bot_env
from testbed.processes import whodunit_command as whodunit_command


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
