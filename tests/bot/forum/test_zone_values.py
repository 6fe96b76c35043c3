"""A value typed in `/settings …` that does not fit its setting is refused with the same
clear answer, logs no traceback and changes nothing (issue 39): a time zone that names no
zone (a folder of the zone database, a very long word, a link such as posixrules, the
system's localtime), and a Liars Edition window of any sort (huge, NaN, unicode digits,
an odd unit, too long; every typed window crashed the handler before it was read as a
duration); a fitting value then works."""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

import pytest

from locales import t
from tests.support.harness import Party, bot_messages

ZONE = "Unknown time zone. Use a name such as Europe/Moscow or UTC."
WINDOW = t("en", "setting.liar_window")
REFUSALS = [
    *(("timezone", typed, ZONE) for typed in ("Europe/", "a" * 300, "posixrules", "localtime")),
    ("timezone", "../etc", ZONE),
    ("liar_window", "9" * 400, f"too large for “{WINDOW}”"),
    ("liar_window", "nan", f"Give a time like 90m, 2h or 1d for “{WINDOW}”"),
    ("liar_window", "١٢s", f"Give a time like 90m, 2h or 1d for “{WINDOW}”"),
    ("liar_window", "5 parsecs", f"Give a time like 90m, 2h or 1d for “{WINDOW}”"),
    ("liar_window", "2h", f"“{WINDOW}”"),  # read, and over the engine's hour
]
WORKS: dict[str, tuple[str, Any]] = {
    "timezone": ("Berlin", "Europe/Berlin"),
    "liar_window": ("45s", timedelta(seconds=45)),
}


@pytest.mark.parametrize(("setting", "typed", "refusal"), REFUSALS)
async def test_a_value_that_does_not_fit_is_refused_and_changes_nothing(
    table: Party, setting: str, typed: str, refusal: str, caplog: pytest.LogCaptureFixture
) -> None:
    before = await table.bot.services.store.chats.get(table.group.id)
    with caplog.at_level(logging.WARNING):
        await table.bot.say(table.alice, table.group, f"/settings {setting} {typed}")
    answer = bot_messages(table.group)[-1].text
    assert refusal in answer, answer
    assert await table.bot.services.store.chats.get(table.group.id) == before
    assert not [r for r in caplog.records if r.exc_info], "no traceback"
    fitting, value = WORKS[setting]
    await table.bot.say(table.alice, table.group, f"/settings {setting} {fitting}")
    after = await table.bot.services.store.chats.get(table.group.id)
    assert getattr(after.settings, setting) == value  # it works
