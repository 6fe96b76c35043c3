"""Running the real `whodunit run` in its own process, for process-level tests (its command
and environment are in testbed/processes.py)."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path
from typing import IO

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


async def warm_bot(
    env: dict[str, str], cwd: Path, out: int | IO[bytes] = asyncio.subprocess.PIPE
) -> asyncio.subprocess.Process:
    """`whodunit run` with its modules imported, waiting for `go` (tests/support/warm_bot.py):
    started ahead, it runs at once when told, without a second or more of imports. Its
    output goes to `out` (a pipe unless a file is given)."""
    path = os.pathsep.join(p for p in (str(REPO_ROOT), env.get("PYTHONPATH")) if p)
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.support.warm_bot",
        "run",
        env={**env, "PYTHONPATH": path},  # this repository on the module path
        cwd=cwd,
        stdin=asyncio.subprocess.PIPE,
        stdout=out,
        stderr=asyncio.subprocess.STDOUT,
    )


async def go(process: asyncio.subprocess.Process) -> None:
    """Tell a `warm_bot` to run."""
    assert process.stdin is not None
    process.stdin.write(b"go\n")
    await process.stdin.drain()


async def never_go(process: asyncio.subprocess.Process) -> None:
    """Let a `warm_bot` that was never told to run exit (its standard input closed)."""
    if process.stdin is not None and process.returncode is None:
        process.stdin.close()
    await process.wait()


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
