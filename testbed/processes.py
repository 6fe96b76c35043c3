"""The real `whodunit run` as a process: its command, its environment, a free local port."""

from __future__ import annotations

import os
import socket
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]


def whodunit_command() -> list[str]:
    """The installed console script if there is one, else the module."""
    script = Path(sys.executable).parent / "whodunit"
    return [str(script)] if script.exists() else [sys.executable, "-m", "bot.cli"]


def bot_env(token: str | None, api_url: str, database_url: str, **extra: str) -> dict[str, str]:
    """This process's environment without its WHODUNIT_ settings, plus the bot's."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("WHODUNIT_")}
    env.update(WHODUNIT_TELEGRAM_API_URL=api_url, WHODUNIT_DATABASE_URL=database_url, **extra)
    if token is not None:
        env["WHODUNIT_BOT_TOKEN"] = token
    return env


def free_port() -> int:
    """A local TCP port nobody listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port
