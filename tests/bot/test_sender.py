"""The one sender: waits out 429s, retries server errors with back-off, loses nothing."""

from __future__ import annotations

from datetime import timedelta

from tests.bot.conftest import Table
from tests.bot.harness import bot_messages


def _sends(table: Table) -> list[tuple[int, float]]:
    return [(c.status, c.at) for c in table.server.calls if c.method == "sendMessage"]


async def test_a_429_is_waited_out_and_the_message_delivered_once(table: Table) -> None:
    table.server.fail_next("sendMessage", 429, retry_after=1, times=1)
    before = len(_sends(table))
    await table.bot.say(table.alice, table.group, "/rules")
    await table.server.wait_for(
        lambda: any("The rules" in m.text for m in bot_messages(table.group))
    )
    sends = _sends(table)[before:]
    assert [status for status, _ in sends] == [429, 200]
    assert sends[1][1] - sends[0][1] >= 1.0, "the retry came after retry_after"
    assert sum("The rules" in m.text for m in bot_messages(table.group)) == 1


async def test_server_errors_are_retried_with_back_off(table: Table) -> None:
    table.server.fail_next("sendMessage", 502, times=2)
    await table.bot.say(table.alice, table.group, "/rules")
    assert not any("The rules" in m.text for m in bot_messages(table.group))
    counts = await table.bot.services.store.outbox_counts()
    assert counts.get("pending") == 1, "kept for a later try, not dropped"
    await table.bot.advance(timedelta(seconds=3))  # the first back-off (2 s)
    await table.bot.advance(timedelta(seconds=5))  # the second (4 s)
    assert sum("The rules" in m.text for m in bot_messages(table.group)) == 1
    assert (await table.bot.services.store.outbox_counts()) == {"sent": 1}
