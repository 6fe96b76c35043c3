"""/top and /me end to end (bench.ratings): the real bot (python-telegram-bot, storage,
outbox, sender; `testbed.harness`) in this process, polling the fake Bot API, on the
database that holds the chat's rated games. Each command is timed from the moment the
person sent it (the update queued at the fake) to the moment the bot's answer reached the
fake (its sendMessage received), one command at a time, the bot settled in between."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from dataclasses import dataclass

from fakebot import FakeChat, FakeGroup, FakeTelegram, FakeUser
from testbed.harness import TOKEN, BotHarness

PEOPLE = 6  # the simulated games' people are users 1..6 (simulation/rated_games.py)
WARM_UP = 5  # untimed commands of each kind first
ANSWER_TIMEOUT = 30.0
ANSWERS = ("sendMessage", "sendPhoto")  # /me answers with its card, a picture


@dataclass
class Club:
    """The fake Telegram, the simulated games' people (their own ids) and their group."""

    server: FakeTelegram
    people: Sequence[FakeUser]
    group: FakeGroup


def club(server: FakeTelegram) -> Club:
    """Users 1..6 (the ids the simulated games seat) in a group with the bot."""
    world = server.world
    people = []
    for user_id in range(1, PEOPLE + 1):
        person = FakeUser(world, user_id, f"Player {user_id}", username=f"player{user_id}")
        person.language_code = "en"
        world.users[user_id] = person
        people.append(person)
    group = server.add_group("Cluedo club", admins=people[:1], members=people)
    return Club(server, people, group)


async def _answer(server: FakeTelegram, chat: FakeChat, since: int) -> float:
    """When the bot's first answer to `chat` (a message or a picture) after call number
    `since` arrived."""
    loop = asyncio.get_running_loop()
    while True:
        for call in server.calls[since:]:
            if call.method in ANSWERS and call.params.get("chat_id") == chat.id:
                return call.received
        since = len(server.calls)
        arrived: asyncio.Future[None] = loop.create_future()
        server.call_waiters.setdefault(chat.id, set()).add(arrived)
        await asyncio.wait_for(arrived, ANSWER_TIMEOUT)


async def _command(harness: BotHarness, person: FakeUser, chat: FakeChat, text: str) -> float:
    """One command's seconds from the update sent to the answer received; then settled."""
    server = harness.server
    since = len(server.calls)
    sent = time.time()
    if isinstance(chat, FakeGroup):
        person.send(chat, text)
    else:
        person.send_private(text)
    received = await _answer(server, chat, since)
    await harness.settle(timeout=60)
    return received - sent


async def timed(the_club: Club, url: str, runs: int) -> dict[str, tuple[list[float], str]]:
    """/top in the group (by user 1), /me in private (user 1's, the busiest record) and
    /help in the group, `runs` times each after a warm-up: each one's seconds."""
    harness = BotHarness(the_club.server, url, None)
    await harness.start()
    try:
        for person in the_club.people:
            person.start_bot()
        await harness.settle(timeout=60)
        asker = the_club.people[0]
        found: dict[str, tuple[list[float], str]] = {}
        group, private = the_club.group, asker.private_chat
        # /help, which reads no rating, for the path every command takes.
        for name, chat in (("/top", group), ("/me", private), ("/help", group)):
            for _ in range(WARM_UP):
                await _command(harness, asker, chat, name)
            times = [await _command(harness, asker, chat, name) for _ in range(runs)]
            found[name] = times, chat.messages()[-1].text.splitlines()[0]
        return found
    finally:
        await harness.stop()


__all__ = ["TOKEN", "Club", "club", "timed"]
