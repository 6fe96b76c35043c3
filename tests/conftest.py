"""Fixtures shared by the storage and the end-to-end tests."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings

from locales import CHECKS
from tests.support.postgres import require_server

TESTS = Path(__file__).parent

# The processes the tests start (the bot, killed and started again dozens of times; the fake
# Telegram; the sweepers) import some 300 modules of this project each: where the environment
# says not to write bytecode (PYTHONDONTWRITEBYTECODE), each start compiled them all again
# (0.2 s of CPU a start). They cache it outside the tree instead, checked against the source.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
os.environ.setdefault("PYTHONPYCACHEPREFIX", str(Path(tempfile.gettempdir()) / "whodunit-pycache"))

# No time limit per example: speed is measured by the benchmarks, and a loaded machine
# (CI beside other work) must not turn a slow example into a failure.
settings.register_profile("whodunit", deadline=None)
settings.load_profile("whodunit")
# A plural message given no count fails the test that renders it (every message kind is
# rendered by some test: the played games in every language, the end-to-end ones).
CHECKS.plurals = True


# The longest modules, longest first (seconds in one process here: 221, 150, 140, 118, 110, 73,
# 67, 62, 23, 20), handed out before the other slow ones.
LONGEST = (
    "bot/processes/test_workers.py",
    "engine/table/test_random_games.py",
    "bot/render/test_languages_e2e.py",
    "bot/detectives/test_table_with_detectives.py",
    "bot/processes/test_crash_kills.py",
    "bot/processes/test_restart.py",
    "bot/processes/test_debug_log.py",
    "bot/processes/test_real_time.py",
    "bot/render/test_rendering_games.py",
    "engine/test_simulation.py",
)


def _order(item: pytest.Item, slow_modules: set[Path]) -> int:
    relative = item.path.relative_to(TESTS).as_posix()
    if relative in LONGEST:
        return LONGEST.index(relative)
    return len(LONGEST) if item.path in slow_modules else len(LONGEST) + 1


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The longest modules first, then the others with slow tests (each module's tests kept
    together): run in parallel (scripts/test), the long tests start early on both workers
    instead of one running alone at the end."""
    slow_modules = {item.path for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: _order(item, slow_modules))


@pytest.fixture(scope="session")
def pg_server() -> str:
    """The PostgreSQL server URL, or skip (fail under CI) when it cannot be reached."""
    return require_server()
