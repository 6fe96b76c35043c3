"""Fixtures shared by the storage and the end-to-end tests."""

from __future__ import annotations

import asyncio
import os

import asyncpg
import pytest
from hypothesis import settings

from tests.support.postgres import PG_URL, admin_sql

# No time limit per example: speed is measured by the benchmarks, and a loaded machine
# (CI beside other work) must not turn a slow example into a failure.
settings.register_profile("whodunit", deadline=None)
settings.load_profile("whodunit")


@pytest.fixture(scope="session")
def pg_server() -> str:
    """The PostgreSQL server URL, or skip (fail under CI) when it cannot be reached."""
    try:
        asyncio.run(admin_sql("SELECT 1"))
    except (OSError, asyncpg.PostgresError, TimeoutError) as exc:
        message = f"PostgreSQL unreachable at {PG_URL}: {exc!r}"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message)
        pytest.skip(message)
    return PG_URL
