"""A time zone typed in `/settings timezone …` that names no zone (a folder of the zone
database, a very long word, a link such as posixrules, the system's localtime) is refused
with the same clear answer, logs no traceback and changes nothing (issue 39, point 5)."""

from __future__ import annotations

import logging

import pytest

from tests.support.harness import Party, bot_messages

REFUSED = "Unknown time zone. Use a name such as Europe/Moscow or UTC."


@pytest.mark.parametrize("typed", ["Europe/", "a" * 300, "posixrules", "localtime", "../etc"])
async def test_a_value_that_names_no_zone_is_refused_and_changes_nothing(
    table: Party, typed: str, caplog: pytest.LogCaptureFixture
) -> None:
    before = await table.bot.services.store.chats.get(table.group.id)
    with caplog.at_level(logging.WARNING):
        await table.bot.say(table.alice, table.group, f"/settings timezone {typed}")
    answer = bot_messages(table.group)[-1].text
    assert REFUSED in answer, answer
    assert await table.bot.services.store.chats.get(table.group.id) == before
    assert not [r for r in caplog.records if r.exc_info], "no traceback"
    await table.bot.say(table.alice, table.group, "/settings timezone Berlin")
    assert (await table.bot.services.store.chats.get(table.group.id)) != before  # it works
