"""Achievements through the fake Bot API, in English and Russian: a forum game won on day 1
gets one achievements post in its thread and one private message to the winner, naming
the game; another sweep, the ratings looking again and the owed messages composed again
tell nothing twice; /me lists them."""

from __future__ import annotations

from datetime import timedelta

import pytest

from engine.state import Phase
from locales import t
from tests.support.catalogs import literal
from tests.support.harness import Party, bot_messages
from tests.support.play import compose_accusation, open_and_start, state

BUTTONS = {  # join, start
    "en": ("Join", "Start the game"),
    "ru": ("Вступить", "Начать игру"),
}


def _posts(table: Party, lang: str) -> list[str]:
    head = literal(lang, "achievements.post")
    return [m.text for m in bot_messages(table.group) if m.text.startswith(head)]


def _told(table: Party, lang: str) -> list[str]:
    """Bob's private messages that tell his achievement of day 1."""
    line = f"🏅 {t(lang, 'achievement.name.day_one')} — "
    return [m.text for m in table.bob.private_messages() if line in m.text]


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_a_game_won_on_day_one_is_told_once_in_the_thread_and_privately(
    table: Party, lang: str
) -> None:
    join, start = BUTTONS[lang]
    for person in table.players:
        person.language_code = lang
    if lang != "en":
        await table.bot.say(table.alice, table.group, f"/language {lang}")
    game_id = await open_and_start(table, join_text=join, start_text=start)
    game = await state(table, game_id)
    assert game.envelope is not None
    await compose_accusation(table, table.bob, game.envelope, lang)
    assert _posts(table, lang) == [] and _told(table, lang) == []
    await table.bot.advance(timedelta(hours=24, seconds=1))
    assert (await state(table, game_id)).phase is Phase.ENDED

    day_one = t(lang, "achievement.name.day_one")
    (post,) = _posts(table, lang)
    assert post.startswith(f"{literal(lang, 'achievements.post')}\n@bob: ")
    assert day_one in post.splitlines()[1] and len(post.splitlines()) == 2
    assert "@alice" not in post and "@carol" not in post
    (told,) = _told(table, lang)
    assert told.startswith("🎲 Cluedo club\n🏅 ")  # the game it was earned in
    assert f"🏅 {day_one} — " in told
    for other in (table.alice, table.carol, table.dave):
        assert not any(day_one in m.text for m in other.private_messages())

    services = table.bot.services
    await services.store.ratings.rate_pending()
    await services.compose_owed()
    await table.bot.scheduler.sweep()
    await table.bot.settle()
    assert len(_posts(table, lang)) == 1 and len(_told(table, lang)) == 1

    await table.bot.say(table.bob, None, "/me")
    picture = table.bob.private_messages()[-1]
    assert picture.photo is not None  # the card; its words behind a button
    await table.bot.press(table.bob, picture, t(lang, "button.me_text"))
    card = table.bob.private_messages()[-1].text
    total = len(await services.store.achievements.of_person(table.bob.id))
    heading = t(lang, "me.achievements", earned=total, total=20).replace("<b>", "")
    assert heading.replace("</b>", "") in card and f"🏅 {day_one} — " in card
