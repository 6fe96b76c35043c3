"""/top in a group and /me in private, through the fake Bot API, in English and Russian:
the chat's leaderboard by the cautious estimate, a person's profile card (a picture, its
record in words behind a button); the /me buttons hide them from every leaderboard or list
them across chats, on the picture as on the words, and a stale or forged press changes
nothing; an admin's /season new starts a fresh leaderboard, the old one readable."""

from __future__ import annotations

import asyncio
import io
import re
import secrets
from datetime import timedelta

from PIL import Image

from engine.standings import FORUM, standings
from fakebot import FakeMessage, FakeUser
from fakebot.messages import CallbackAnswer
from locales import t
from simulation.randomplay import START
from simulation.rated_games import PeopleGame, archive
from storage.moments import Averages
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


def _plain(text: str) -> str:
    return re.sub(r"<[^>]+>", "", text)


async def _new_season(table: Party, lang: str, season_word: str) -> None:
    """A non-admin's /season new is refused; Alice's (the admin's) asks, with a button only
    she may press, and her press starts season 2 (a stale or forged one changes nothing):
    /top is empty again and names the season, /top season 1 is the old board, season 9
    and a bad number are refused. Asked again, "not now" keeps season 2."""
    seasons, chat = table.bot.services.store.seasons, table.group.id
    old = await _top(table)
    assert old.startswith(_plain(t(lang, "top.title")))
    await table.bot.say(table.bob, table.group, "/season new")
    assert table.group.messages()[-1].text == t(lang, "error.admin_only")
    await table.bot.say(table.alice, table.group, "/season new")
    ask = table.group.messages()[-1]
    assert ask.text == t(lang, "season.ask", season=2, previous=1)
    start = t(lang, "button.season_start", season=2)
    assert [text for row in ask.buttons for text, _ in row] == [
        start,
        t(lang, "button.season_not_now"),
    ]
    answer = await table.bot.press(table.bob, ask, start)
    assert (answer.text, answer.show_alert) == (t(lang, "toast.not_yours"), True)
    assert await seasons.current(chat) == 1
    data = dict(row[0] for row in ask.buttons)[start]  # kept for a second press
    assert data == f"se:0:{table.alice.id}:2"
    answer = await table.bot.press(table.alice, ask, start)
    assert answer.answered and not answer.text
    (told,) = [m for m in table.group.messages() if m.message_id == ask.message_id]
    assert told.text == t(lang, "season.started", season=2, previous=1)
    assert told.buttons == []
    assert (await _forged(table, table.alice, ask, data)).text == t(lang, "toast.stale")
    assert await seasons.current(chat) == 2

    assert await _top(table) == t(lang, "top.none_season", count=3, season=2)
    title = _plain(t(lang, "top.title_season", season=1))
    assert await _top(table, f"/top {season_word} 1") == old.replace(
        _plain(t(lang, "top.title")), title, 1
    )
    no_season = t(lang, "error.no_season", season=9, count=2)
    assert await _top(table, f"/top {season_word} 9") == no_season
    assert await _top(table, "/top season x") == t(lang, "error.season_number", count=2)

    await table.bot.say(table.alice, table.group, "/season new")  # and then not now
    ask = table.group.messages()[-1]
    assert ask.text == t(lang, "season.ask", season=3, previous=2)
    forged = await _forged(table, table.bob, ask, f"se:0:{table.bob.id}:3")  # Bob is no admin
    assert (forged.text, await seasons.current(chat)) == (t(lang, "error.admin_only"), 2)
    await table.bot.press(table.alice, ask, t(lang, "button.season_not_now"))
    assert table.group.messages()[-1].text == t(lang, "season.kept", season=2)
    await table.bot.say(table.bob, table.group, "/season")
    assert table.group.messages()[-1].text == t(lang, "season.now", season=2)


async def _me(table: Party, who: FakeUser) -> FakeMessage:
    await table.bot.say(who, None, "/me")
    return who.private_messages()[-1]


def _labels(message: FakeMessage) -> list[str]:
    return [text for row in message.buttons for text, _ in row]


def _as_now(who: FakeUser, message: FakeMessage) -> FakeMessage:
    """The private message as it reads now (edited since, maybe)."""
    return next(m for m in who.private_messages() if m.message_id == message.message_id)


def _accused(moments: Averages) -> str:
    """The record's line of the average day of the person's accusations."""
    assert moments.accused is not None
    day = f"{round(moments.accused, 1):g}"
    return t("en", "me.accused.forum", day=day, count=moments.accused_games)


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

    assert await ratings.note_pending() == GAMES  # as after each game's end (archived here)
    card = await _me(table, table.bob)
    mine = await ratings.of_person(table.bob.id)
    (rating,) = mine.values()
    image = Image.open(io.BytesIO(card.photo_bytes))
    assert card.photo is not None and image.format == "PNG" and image.width == 960
    listed_line = "You are listed on the leaderboards of the chats where you play (/top)."
    assert card.text == f"🕵️ Your record\n\n{listed_line}\n" + t("en", "me.everywhere_off")
    assert _labels(card) == [
        "📝 Show as text",
        "🙈 Hide me from the leaderboards",
        "🌍 List me across every chat too",
    ]
    await table.bot.press(table.bob, card, "📝 Show as text")
    words = table.bob.private_messages()[-1]
    assert words.photo is None and words.message_id != card.message_id
    assert words.text.startswith(f"🕵️ Your record\n{rating.games} rated games\n")
    assert f"Forum games: {round(rating.mu, 1):g} ± {round(rating.sigma, 1):g}" in words.text
    (moments,) = await ratings.moments(table.bob.id)
    assert f"\n{_accused(moments)}\n" in words.text
    assert _labels(words) == [
        "🙈 Hide me from the leaderboards",
        "🌍 List me across every chat too",
    ]

    old = card
    again = await _me(table, table.bob)
    await table.bot.press(table.bob, again, "🙈 Hide me from the leaderboards")
    edited = table.bob.private_messages()[-1]
    assert edited.message_id == again.message_id and edited.photo_bytes == again.photo_bytes
    assert "🙈 You are hidden from every leaderboard" in edited.text
    assert _labels(edited) == ["📝 Show as text", "👁 List me on the leaderboards"]
    assert "@bob" not in await _top(table)
    await table.bot.press(table.bob, words, "🙈 Hide me from the leaderboards")  # the words too
    words = _as_now(table.bob, words)
    assert "🙈 You are hidden from every leaderboard" in words.text
    assert _labels(words) == ["👁 List me on the leaderboards"]

    # The old card's button hides again (nothing changes, the card is brought up to date);
    # a forged press is refused, and one on someone else's card sends nothing.
    await table.bot.press(table.bob, old, "🙈 Hide me from the leaderboards")
    assert (await ratings.choices(table.bob.id)).hidden
    assert table.bob.private_messages()[-1].text == edited.text
    answer = await _forged(table, table.bob, old, "me:0:everything")
    assert answer.text == t("en", "toast.stale") and answer.show_alert
    assert await _forged(table, table.bob, old, "me:7:show") == answer
    assert (await ratings.choices(table.bob.id)).hidden
    sent = len(table.alice.private_messages()), len(table.bob.private_messages())
    answer = await _forged(table, table.alice, old, "me:0:text")
    assert answer.text == t("en", "toast.not_yours") and answer.show_alert
    assert (len(table.alice.private_messages()), len(table.bob.private_messages())) == sent

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

    await _new_season(table, "en", "season")
    assert (await _top(table, "/top all")) == everywhere  # no seasons across every chat


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
    assert card.photo is not None and card.text.startswith(
        "🕵️ Ваши результаты\n\nВы видны в таблицах лидеров"
    )
    await table.bot.press(table.carol, card, "📝 Показать текстом")
    words = table.carol.private_messages()[-1].text
    assert words.startswith(f"🕵️ Ваши результаты\n{rating.games} рейтинговых игр\n")
    assert "Игры по переписке: " in words
    await table.bot.press(table.carol, card, "🙈 Скрыть меня из таблиц")
    assert "🙈 Вас не видно ни в одной таблице лидеров" in _as_now(table.carol, card).text
    assert "@carol" not in await _top(table)
    await _new_season(table, "ru", "сезон")
