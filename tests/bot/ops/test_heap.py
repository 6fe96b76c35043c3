"""What is alive once the bot has started is left out of later full garbage collections."""

from __future__ import annotations

import subprocess
import sys

SCRIPT = """
import gc
import bot.cli  # the bot's modules, as `whodunit run` has them
from bot.heap import settle_startup_objects
frozen = settle_startup_objects()
print(frozen, len(gc.get_objects()))
"""


def test_start_up_objects_are_frozen_and_a_full_collection_no_longer_scans_them() -> None:
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    frozen, still_scanned = map(int, done.stdout.split())
    assert frozen > 10_000
    assert still_scanned < 100
