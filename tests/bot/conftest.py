"""Fixtures for end-to-end tests: the fake Bot API, the real bot, four people and a group."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from fakebot import FakeTelegram
from tests.support.harness import TOKEN, BotHarness, Clock, Party, database_url


@pytest.fixture
async def server() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram(TOKEN) as fake:
        yield fake


@pytest.fixture
async def table(server: FakeTelegram, tmp_path: Path) -> AsyncIterator[Party]:
    alice = server.add_user("Alice", username="alice", language_code="en")
    bob = server.add_user("Bob", username="bob", language_code="en")
    carol = server.add_user("Carol", username="carol", language_code="en")
    dave = server.add_user("Dave", username="dave", language_code="en")
    group = server.add_group(
        "Cluedo club", admins=[alice], members=[bob, carol, dave], bot_admin=True
    )
    harness = BotHarness(server, database_url(tmp_path), Clock())
    await harness.start()
    try:
        yield Party(server, harness, group, alice, bob, carol, dave)
    finally:
        await harness.stop()
