"""Every private message of a game names its game (issue 39), through the fake Bot API: a
player uses every private command and button that acts on a running game (its answers,
its refusals, the notebook, away and back, the standing answer, the composers), and each
message they get of it names the game's chat. The messages the game's own moves plan are
checked over random games of every format (tests/bot/render/test_rendering_games.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from engine.cards import Category
from engine.state import Game
from fakebot import FakeGroup, FakeMessage, FakeTelegram, FakeTopic, FakeUser
from locales import t
from tests.support.harness import BotHarness, Clock, Party, database_url
from tests.support.play import card_name, compose_accusation, open_and_start, state

LABEL = "Cluedo club"  # the group's title: what names its game in a private chat
# Not of a game: the welcome (before any), how to say /away (read before any game is
# looked at, the same with none: it is for every game the person plays).
NOT_OF_A_GAME = ("start.welcome", "away.usage")


async def _private(table: Party, person: FakeUser, text: str) -> None:
    await table.bot.say(person, None, text)


async def _notebook(table: Party, person: FakeUser, text: str) -> FakeMessage:
    """The notebook is worked out off the event loop: waited for."""
    last = max((m.message_id for m in person.private_messages()), default=0)
    await table.bot.say(person, None, text)
    return await person.wait_private(lambda m: m.text.startswith(("📓", "🎲")), after=last)


async def test_every_private_message_of_a_running_game_names_it(table: Party) -> None:
    game_id = await open_and_start(table)
    game = await state(table, game_id)
    bob = game.player_of(table.bob.id)
    assert bob is not None
    mine, other = card_name(bob.hand[0]), card_name(next(c for c in game.deck if c not in bob.hand))

    await _private(table, table.bob, "/hand")
    picture = await _notebook(table, table.bob, "/notebook")  # nothing seen yet: the deal
    assert picture.text.startswith(f"📓 {LABEL}: @bob's notebook, as dealt\n")
    await _notebook(table, table.bob, "/notebook text")
    await _private(table, table.bob, "/mark Excalibur @dave yes")  # no such card
    await _private(table, table.bob, f"/mark {other} @dave maybe")
    await _private(table, table.bob, f"/mark {other} @dave clear")
    await _private(table, table.bob, "/mark")  # how to mark
    await _private(table, table.bob, "/standing")  # none yet: how to set one
    await _private(table, table.bob, "/standing Excalibur")  # not a card of Bob's
    await _private(table, table.bob, f"/standing {mine}")
    await _private(table, table.bob, "/standing")  # shown
    await _private(table, table.bob, "/standing clear")
    await _private(table, table.bob, "/away 30d")  # more than the game allows
    await _private(table, table.bob, "/away soon")  # unreadable: how to say it
    await _private(table, table.bob, "/away 1d")
    await _private(table, table.bob, "/back")
    await _private(table, table.bob, "/back")  # not away
    await _private(table, table.bob, "/suggest")
    await _private(table, table.bob, "/accuse")
    assert game.envelope is not None
    wrong = (other_suspect(game, game.envelope[0]), *game.envelope[1:])
    await compose_accusation(table, table.bob, wrong)  # its answers are the game's
    await _private(table, table.bob, "/accuse")  # refused: Bob has accused
    await table.bot.settle()
    refused = t("en", "error.already_accused")
    assert table.bob.private_messages()[-1].text == f"🎲 {LABEL}\n{refused}"

    said = [m for m in table.bob.private_messages() if not _not_of_a_game(m)]
    assert len(said) > 15
    unnamed = [m.text for m in said if LABEL not in m.text]
    assert unnamed == [], "\n---\n".join(unnamed)


def other_suspect(game: Game, suspect: str) -> str:
    return next(c for c in game.in_play(Category.SUSPECT) if c != suspect)


def _not_of_a_game(message: FakeMessage) -> bool:
    return any(message.text == t("en", key) for key in NOT_OF_A_GAME)


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


async def test_a_private_message_of_several_games_names_each(
    server: FakeTelegram, bot: BotHarness
) -> None:
    """/away applies to every game: a refusal in each names its game; a command that needs
    one game of several lists each by number and chat."""
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
    assert one is not None and two is not None

    last = bob.private_messages()[-1].message_id
    await bot.say(bob, None, "/away 30d")
    refusals = [m.text for m in bob.private_messages() if m.message_id > last]
    limit = t("en", "error.away_limit", limit=3, left=3)
    assert refusals == [f"🎲 Forum · Game one\n{limit}", f"🎲 Forum · Game two\n{limit}"]

    games = f"{one.id} (Forum · Game one), {two.id} (Forum · Game two)"
    for command in ("notebook", "standing", "mark"):
        await bot.say(bob, None, f"/{command}")
        expected = t("en", "notebook.pick_game", games=games, command=command, first=one.id)
        assert bob.private_messages()[-1].text == expected
