"""/help fits one screen (a player's few commands, and where the rest are: /help admin,
/help table); /start offers our languages to whom Telegram speaks one we have no catalog
for, and a press sets their own language."""

from __future__ import annotations

import re

import pytest

from locales import LANGUAGES, t
from locales.formats import language_name
from tests.bot.forum.test_introduction import forged, labels, plain
from tests.support.harness import Party, bot_messages

SHORT = ("help.group", "help.private")
SCREEN_LINES = 10  # what a phone shows without scrolling


async def test_help_is_short_and_points_to_the_rest(table: Party) -> None:
    for typed, key in (
        ("/help", "help.group"),
        ("/help admin", "help.admin"),
        ("/help table", "help.table"),
        ("/help nonsense", "help.group"),
    ):
        await table.bot.say(table.bob, table.group, typed)
        assert bot_messages(table.group)[-1].text == plain("en", key), typed
    table.carol.language_code = "uk"
    table.carol.start_bot()
    await table.bot.settle()
    for typed, key in (("/help", "help.private"), ("/help ADMIN", "help.admin")):
        await table.bot.say(table.carol, None, typed)
        assert table.carol.private_messages()[-1].text == plain("uk", key), typed


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_short_help_fits_a_screen_and_names_the_longer_ones(language: str) -> None:
    for key in SHORT:
        text = t(language, key)
        assert len(text.splitlines()) <= SCREEN_LINES, (language, key)
        assert "/help admin" in text and "/help table" in text, (language, key)


def test_every_command_is_in_some_help(table: Party) -> None:
    """Each command the bot answers to is in one of the four helps (but /start and /help)."""
    commands = {
        f"/{name}"
        for handlers in table.bot.app.handlers.values()
        for handler in handlers
        for name in getattr(handler, "commands", ())
    }
    assert "/newgame" in commands and "/endgame" in commands
    for language in LANGUAGES:
        said = set()
        for key in (*SHORT, "help.admin", "help.table"):
            said |= set(re.findall(r"/[a-z]+", t(language, key)))
        assert commands - {"/start", "/help"} <= said, (language, commands - said)


async def test_start_offers_our_languages_when_telegrams_is_not_ours(table: Party) -> None:
    dave = table.dave
    dave.language_code = "fr"
    dave.start_bot()
    await table.bot.settle()
    [welcome] = dave.private_messages()
    assert welcome.text == plain("en", "start.welcome")
    assert labels(welcome) == [language_name(code) for code in LANGUAGES]

    for data in ("pl:0:xx:w", "pl:0:es:x", "pl:0:es:w:w", "pl:1:es:w"):
        answer = await forged(table, dave, welcome, data)
        assert answer.answered and answer.text == t("en", "toast.stale"), data
    person = await table.bot.services.store.people.get(dave.id)
    assert person is not None and person.language is None

    await table.bot.press(dave, welcome, "Español")
    [chosen] = dave.private_messages()  # the welcome, said again in Spanish
    assert chosen.message_id == welcome.message_id and not chosen.buttons
    said = plain("es", "language.person_set", language="Español")
    assert chosen.text == f"{plain('es', 'start.welcome')}\n\n{said}"
    person = await table.bot.services.store.people.get(dave.id)
    assert person is not None and person.language == "es"
    await table.bot.say(dave, None, "/hand")
    assert dave.private_messages()[-1].text == t("es", "hand.none")

    dave.start_bot()  # his language is chosen now: no buttons
    await table.bot.settle()
    assert dave.private_messages()[-1].text == plain("es", "start.welcome")
    assert not dave.private_messages()[-1].buttons


async def test_start_offers_no_languages_when_telegrams_is_ours(table: Party) -> None:
    bob = table.bob
    bob.language_code = "de"
    bob.start_bot()
    await table.bot.settle()
    [welcome] = bob.private_messages()
    assert welcome.text == plain("de", "start.welcome") and not welcome.buttons
