"""/top in a group and /me in private, through the fake Bot API, in English and Russian:
the chat's leaderboard by the cautious estimate, a person's record; the /me buttons hide
them from every leaderboard or list them across chats, and a stale or forged press
changes nothing."""

from __future__ import annotations

import asyncio
import secrets
from datetime import timedelta

from engine.standings import FORUM, standings
from fakebot import FakeMessage, FakeUser
from fakebot.messages import CallbackAnswer
from locales import t
from simulation.randomplay import START
from simulation.rated_games import PeopleGame, archive
from storage.rating_math import EVERY_CHAT
from storage.ratings import Choices
from tests.support.harness import Party

GAMES = 8  # rated forum games of the four, archived in the group before the commands


async def _played(table: Party) -> None:
    """GAMES rated forum games of Alice, Bob, Carol and Dave, stored as ended games."""
    people = tuple(p.id for p in (table.alice, table.bob, table.carol, table.dave))
    store = table.bot.services.store
    seed = stored = 0
    while stored < GAMES:
        game = PeopleGame(seed, len(people), people=people)
        game.play()
        seed += 1
        if standings(game.game):
            await archive(store, table.group.id, game.events, START + timedelta(hours=seed))
            stored += 1


async def _forged(table: Party, who: FakeUser, message: FakeMessage, data: str) -> CallbackAnswer:
    future: asyncio.Future[CallbackAnswer] = asyncio.get_running_loop().create_future()
    table.server.world.callback_query(str(secrets.randbelow(10**18)), who, message, data, future)
    answer = await asyncio.wait_for(asyncio.shield(future), 5)
    await table.bot.settle()
    return answer


async def _top(table: Party, text: str = "/top") -> str:
    await table.bot.say(table.carol, table.group, text)
    return table.group.messages()[-1].text


async def _me(table: Party, who: FakeUser) -> FakeMessage:
    await table.bot.say(who, None, "/me")
    return who.private_messages()[-1]


async def test_the_leaderboard_and_a_record_in_english_and_hiding_from_it(table: Party) -> None:
    for person in (table.alice, table.bob, table.carol, table.dave):
        person.start_bot()
    await table.bot.settle()
    assert (await _top(table)).startswith(t("en", "top.none", count=3).split(":")[0])
    await _played(table)

    board = await _top(table)
    ratings = table.bot.services.store.ratings
    best = await ratings.leaderboard(table.group.id, FORUM)
    assert board.startswith("🏆 The leaderboard of this chat\n\nForum games\n1. @")
    names = {p.id: f"@{p.username}" for p in table.players}
    listed = [line.split(":")[0].split(" ", 1)[1] for line in board.splitlines()[3:7]]
    assert listed == [names[user] for user, _ in best]
    assert "Games at the table" not in board
    assert "a player is listed after 3 rated games" in board

    card = await _me(table, table.bob)
    mine = await ratings.of_person(table.bob.id)
    (rating,) = mine.values()
    assert card.text.startswith(f"🕵️ Your record\n{rating.games} rated games\n")
    assert f"Forum games: {round(rating.mu, 1):g} ± {round(rating.sigma, 1):g}" in card.text
    assert "You are listed on the leaderboards of the chats where you play (/top)." in card.text
    assert [text for row in card.buttons for text, _ in row] == [
        "🙈 Hide me from the leaderboards",
        "🌍 List me across every chat too",
    ]
    old = card
    again = await _me(table, table.bob)
    await table.bot.press(table.bob, again, "🙈 Hide me from the leaderboards")
    edited = table.bob.private_messages()[-1]
    assert edited.message_id == again.message_id
    assert "🙈 You are hidden from every leaderboard" in edited.text
    assert [text for row in edited.buttons for text, _ in row] == ["👁 List me on the leaderboards"]
    assert "@bob" not in await _top(table)

    # The old card's button hides again (nothing changes, the card is brought up to date);
    # a forged press is refused.
    await table.bot.press(table.bob, old, "🙈 Hide me from the leaderboards")
    assert (await ratings.choices(table.bob.id)).hidden
    assert table.bob.private_messages()[-1].text == edited.text
    answer = await _forged(table, table.bob, old, "me:0:everything")
    assert answer.text == t("en", "toast.stale") and answer.show_alert
    assert await _forged(table, table.bob, old, "me:7:show") == answer
    assert (await ratings.choices(table.bob.id)).hidden

    # Across chats: only who chose to be listed there, and never someone hidden.
    assert (await _top(table, "/top all")).startswith("🏆 Nobody is on this leaderboard yet")
    card = await _me(table, table.alice)
    await table.bot.press(table.alice, card, "🌍 List me across every chat too")
    await _forged(table, table.bob, old, "me:0:all")  # a button his card no longer shows
    assert await ratings.choices(table.bob.id) == Choices(hidden=True, everywhere=True)
    everywhere = await _top(table, "/top all")
    assert everywhere.startswith("🏆 The leaderboard across every chat\n\nForum games\n1. @alice:")
    assert "@bob" not in everywhere and "@carol" not in everywhere
    assert [u for u, _ in await ratings.leaderboard(EVERY_CHAT, FORUM)] == [table.alice.id]


async def test_the_leaderboard_and_a_record_in_russian(table: Party) -> None:
    for person in (table.alice, table.bob, table.carol, table.dave):
        person.language_code = "ru"
        person.start_bot()
    await table.bot.say(table.alice, table.group, "/language ru")
    await _played(table)
    board = await _top(table)
    assert board.startswith("🏆 Таблица лидеров чата\n\nИгры по переписке\n1. @")
    assert "игрок попадает в таблицу после 3 рейтинговых игр" in board
    card = await _me(table, table.carol)
    (rating,) = (await table.bot.services.store.ratings.of_person(table.carol.id)).values()
    assert card.text.startswith(f"🕵️ Ваши результаты\n{rating.games} рейтинговых игр\n")
    assert "Игры по переписке: " in card.text
    await table.bot.press(table.carol, card, "🙈 Скрыть меня из таблиц")
    assert "🙈 Вас не видно ни в одной таблице лидеров" in table.carol.private_messages()[-1].text
    assert "@carol" not in await _top(table)
