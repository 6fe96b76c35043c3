"""The fake counts the bot-wide send rate: the most posts and edits in any window."""

from __future__ import annotations

import asyncio
import time

from telegram import Bot

from fakebot import FakeTelegram, FakeTelegramClient
from tests.fakebot.shared import TOKEN


async def test_the_most_posts_in_any_second_are_counted(bot: Bot, server: FakeTelegram) -> None:
    people = [server.add_user(f"P{n}") for n in range(6)]
    for person in people:
        person.start_bot()
    start = time.time()
    await asyncio.gather(*(bot.send_message(p.id, "hi") for p in people[:4]))
    await bot.get_me()  # posts nothing: not counted
    await asyncio.sleep(1.1)
    sent = await asyncio.gather(*(bot.send_message(p.id, "again") for p in people[:2]))
    await bot.edit_message_text("edited", chat_id=people[0].id, message_id=sent[0].message_id)
    most, window_start = server.send_rate(1.0)
    assert most == 4 and window_start >= start
    assert server.send_rate(1.0, since=start + 1.0)[0] == 3  # two sends and an edit
    assert server.send_rate(5.0)[0] == 7


async def test_the_client_reads_the_rate_from_a_running_fake() -> None:
    async with await FakeTelegramClient.launch(TOKEN) as fake:
        alice = await fake.add_user("Alice")
        await alice.start_bot()
        async with Bot(TOKEN, base_url=fake.base_url) as bot:
            for _ in range(3):
                await bot.send_message(alice.id, "hello")
        assert await fake.max_send_rate(5.0) == 3
        assert await fake.max_send_rate(5.0, since=time.time() + 1) == 0
