"""A quick game on real time: one-minute days open and close on schedule."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from fakebot import FakeTelegram
from tests.support.harness import BotHarness, Party, bot_messages, database_url
from tests.support.play import open_and_start, state

TOLERANCE = 3.0  # seconds between a deadline and the post that shows it was met


@pytest.fixture
async def quick_table(server: FakeTelegram, tmp_path: Path) -> AsyncIterator[Party]:
    people = [server.add_user(n, username=n.lower()) for n in ("Alice", "Bob", "Carol", "Dave")]
    group = server.add_group("Quick", admins=people[:1], members=people[1:], bot_admin=True)
    harness = BotHarness(server, database_url(tmp_path), None, sweep_seconds=1.0)
    await harness.start()
    try:
        yield Party(server, harness, group, *people)
    finally:
        await harness.stop()


async def _post_time(table: Party, text: str, timeout: float) -> datetime:
    """When the bot's post containing `text` reached the group (by the fake's clock)."""
    await table.server.wait_for(
        lambda: any(text in m.text for m in bot_messages(table.group)), timeout=timeout
    )
    message = next(m for m in bot_messages(table.group) if text in m.text)
    return datetime.fromtimestamp(message.date, UTC)


@pytest.mark.slow
async def test_one_minute_days_open_and_close_on_schedule(quick_table: Party) -> None:
    table = quick_table
    await table.bot.say(table.alice, table.group, "/settings day_length 1m")
    game_id = await open_and_start(table)
    game = await state(table, game_id)
    first_end = game.day_ends_at
    assert first_end is not None
    assert abs((first_end - datetime.now(UTC)).total_seconds() - 60) < TOLERANCE + 2
    ended = await _post_time(table, "Day 1 is over", 80)
    assert abs((ended - first_end).total_seconds()) <= TOLERANCE
    opened = await _post_time(table, "Day 2 begins", 10)
    assert abs((opened - first_end).total_seconds()) <= TOLERANCE
    game = await state(table, game_id)
    assert game.day == 2 and game.day_ends_at is not None
    second_end = game.day_ends_at
    assert abs((second_end - first_end).total_seconds() - 60) <= TOLERANCE
