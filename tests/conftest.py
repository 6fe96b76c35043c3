"""Fixtures shared by the storage and the end-to-end tests."""

from __future__ import annotations

import pytest
from hypothesis import settings

from tests.support.postgres import require_server

# No time limit per example: speed is measured by the benchmarks, and a loaded machine
# (CI beside other work) must not turn a slow example into a failure.
settings.register_profile("whodunit", deadline=None)
settings.load_profile("whodunit")


@pytest.fixture(scope="session")
def pg_server() -> str:
    """The PostgreSQL server URL, or skip (fail under CI) when it cannot be reached."""
    return require_server()
