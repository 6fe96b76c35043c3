"""A board picture (sendPhoto) whose answer was lost is handled like a text send: not
resent at once, resent once after the long back-off, then taken as delivered."""

from __future__ import annotations

from datetime import timedelta

from bot.delivery.sender import DOUBT_BACKOFF, Sender
from tests.support.harness import Party, bot_messages
from tests.support.table_play import fix_seed, open_classic


def _board_photos(table: Party) -> int:
    return sum(m.photo is not None and "The board" in m.text for m in bot_messages(table.group))


def _photo_calls(table: Party) -> list[int]:
    calls = table.server.calls_to("sendPhoto")
    group = str(table.group.id)
    return [
        c.status
        for c in calls
        if str(c.params.get("chat_id")) == group and "The board" in str(c.params.get("caption"))
    ]


async def test_a_photo_whose_answer_was_lost_is_resent_once_after_a_long_back_off(
    table: Party,
) -> None:
    sender: Sender = table.bot.app.bot_data["sender"]
    sender.send_timeout = 0.3
    table.server.delay_next("sendPhoto", 1.0, times=2, chat_id=table.group.id)
    fix_seed(table, 3)
    await open_classic(table, [table.alice, table.bob, table.carol])
    assert _board_photos(table) == 1
    await table.bot.advance(timedelta(seconds=DOUBT_BACKOFF - 1))
    assert _board_photos(table) == 1, "not resent at once nor after a short back-off"
    await table.bot.advance(timedelta(seconds=1))
    assert _board_photos(table) == 2, "resent once: a lost post is worse than a double"
    await table.bot.advance(timedelta(hours=1))
    assert _board_photos(table) == 2, "a second lost answer: taken as delivered"
    assert len(_photo_calls(table)) == 2
    counts = await table.bot.services.store.outbox.counts()
    assert set(counts) == {"sent"}, counts
    assert any("Turn 1" in m.text for m in bot_messages(table.group))  # the game goes on
