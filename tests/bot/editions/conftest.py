"""Fixtures of the table editions' end-to-end tests."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from fakebot import FakeTelegram
from tests.support.harness import BotHarness, Clock, Party, database_url

NAMES = ("Alice", "Bob", "Carol", "Dave")


@pytest.fixture
async def limited(server: FakeTelegram, tmp_path: Path) -> AsyncIterator[Party]:
    """The `table` party, with Telegram's group limit as in production: 20 a minute."""
    people = [server.add_user(n, username=n.lower(), language_code="en") for n in NAMES]
    group = server.add_group("Cluedo club", admins=people[:1], members=people[1:], bot_admin=True)
    settings = {"group_messages_per_minute": 20, "group_window_seconds": 60.0}
    harness = BotHarness(server, database_url(tmp_path), Clock(), settings=settings)
    await harness.start()
    try:
        yield Party(server, harness, group, *people)
    finally:
        await harness.stop()
