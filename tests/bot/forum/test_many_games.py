"""Several games at once: two topics of one forum, and one person playing in both."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from fakebot import FakeGroup, FakeTelegram, FakeTopic, FakeUser
from tests.support.harness import BotHarness, Clock, database_url


@pytest.fixture
async def bot(server: FakeTelegram, tmp_path: Path) -> AsyncIterator[BotHarness]:
    harness = BotHarness(server, database_url(tmp_path), Clock())
    await harness.start()
    try:
        yield harness
    finally:
        await harness.stop()


async def _game_in(
    bot: BotHarness, forum: FakeGroup, topic: FakeTopic, people: list[FakeUser]
) -> None:
    await bot.say(people[0], forum, "/newgame", topic=topic)
    lobby = next(m for m in topic.messages() if m.is_from_bot and m.buttons)
    for person in people[1:]:
        await bot.press(person, lobby, "Join")
    await bot.press(people[0], lobby, "Start the game")


async def test_two_topics_two_games_one_person_in_both(
    server: FakeTelegram, bot: BotHarness
) -> None:
    names = ("Alice", "Bob", "Carol", "Dave", "Erin")
    alice, bob, carol, dave, erin = (server.add_user(n, username=n.lower()) for n in names)
    forum = server.add_group(
        "Forum", forum=True, admins=[alice, dave], bot_admin=True, members=[bob, carol, erin]
    )
    first, second = forum.add_topic("Game one"), forum.add_topic("Game two")
    for person in (alice, bob, carol, dave, erin):
        person.start_bot()
    await _game_in(bot, forum, first, [alice, bob, carol])
    await _game_in(bot, forum, second, [dave, bob, erin])

    one = await bot.services.store.game_for_chat(forum.id, first.thread_id)
    two = await bot.services.store.game_for_chat(forum.id, second.thread_id)
    assert one is not None and two is not None and one.id != two.id
    assert any("The game begins" in m.text for m in first.messages())
    assert any("The game begins" in m.text for m in second.messages())
    # Each topic's posts stay in that topic.
    assert all(m.thread_id == first.thread_id for m in first.messages())
    hands = [m for m in bob.private_messages() if "Your cards" in m.text]
    assert [h.text.splitlines()[0] for h in hands] == ["🎲 Forum · Game one", "🎲 Forum · Game two"]

    # Bob's private composer first asks which game.
    await bot.say(bob, None, "/suggest")
    chooser = bob.private_messages()[-1]
    assert "several games" in chooser.text
    assert [b[0] for row in chooser.buttons for b in row] == [
        "Forum · Game one",
        "Forum · Game two",
    ]
    await bot.press(bob, chooser, "Forum · Game two")
    chooser = next(m for m in bob.private_messages() if m.message_id == chooser.message_id)
    assert {b[0] for row in chooser.buttons for b in row} == {"Dave", "Erin", "Cancel"}

    # /status in one topic speaks of that topic's game only.
    await bot.say(alice, forum, "/status", topic=first)
    status = [m for m in first.messages() if m.is_from_bot][-1]
    assert "@alice" in status.text and "@dave" not in status.text
