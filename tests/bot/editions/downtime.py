"""Helpers of the downtime tests: a bot stopped and started again later, and what the
group was told."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from tests.support.harness import BotHarness, Clock, Party, bot_messages, database_url


def count(table: Party, text: str) -> int:
    """How many of the bot's posts in the group contain `text`."""
    return sum(text in m.text for m in bot_messages(table.group))


async def restart_later(table: Party, tmp_path: Path, by: timedelta) -> BotHarness:
    """Stop the bot, let `by` pass with no bot running, start a new one and let it sweep."""
    await table.bot.stop()
    again = BotHarness(table.server, database_url(tmp_path), Clock(table.bot.clock.now() + by))
    await again.start()
    table.bot = again
    await again.advance(timedelta(0))
    return again
