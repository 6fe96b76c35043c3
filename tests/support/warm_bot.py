"""`python -m tests.support.warm_bot run`: the real `whodunit run`, its modules imported
before it is told to go (a line on its standard input; none, and it exits without running).
A test that kills the bot again and again starts the next one while the last still runs: the
kill-to-polling time is then the bot's own start, not its imports (some 300 modules, over a
second of CPU on a loaded machine, twenty times a test)."""

from __future__ import annotations

import sys

import bot.app  # what `run` imports, before the go
import bot.config
import bot.logs
import bot.web.serve  # noqa: F401
from bot.cli import main

if __name__ == "__main__":
    if not sys.stdin.readline():
        sys.exit(0)
    sys.exit(main())
