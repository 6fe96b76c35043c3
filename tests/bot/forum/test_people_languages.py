"""Each person reads their private messages in their own language and their deadlines in
their own time zone; the group reads its posts in the chat's language and zone."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from locales import t
from tests.support.catalogs import literal
from tests.support.harness import Party, bot_messages
from tests.support.play import card_name, naming, open_and_start, state


def _clock(moment: datetime, zone: str) -> str:
    """The local "HH:MM" of a moment in a zone."""
    return moment.astimezone(ZoneInfo(zone)).strftime("%H:%M")


async def test_each_person_in_their_language_and_zone_the_group_in_the_chats(
    table: Party,
) -> None:
    alice, bob, carol, dave = table.players
    bob.language_code = "de"  # Telegram's language, which we have
    dave.language_code = "fr"  # one we have not: the chat's language then
    for person in table.players:
        person.start_bot()
    await table.bot.settle()
    await table.bot.say(alice, table.group, "/language ru")
    await table.bot.say(alice, table.group, "/settings timezone Europe/Berlin")
    await table.bot.say(carol, None, "/language uk")  # her own choice over Telegram's (en)
    await table.bot.say(carol, None, "/timezone Київ")  # a city in her language
    await table.bot.say(alice, None, "/timezone Vladivostok")
    await table.bot.say(dave, None, "/timezone +10")  # an offset

    assert literal("uk", "language.person_set") in carol.private_messages()[-2].text
    assert "Київ, UTC+2" in carol.private_messages()[-1].text  # December: EET
    assert "UTC+10" in dave.private_messages()[-1].text

    game_id = await open_and_start(
        table, join_text=t("ru", "button.join"), start_text=t("ru", "button.start")
    )
    game = await state(table, game_id)
    assert game.day_ends_at is not None and game.settings.timezone == "Europe/Berlin"
    ends = game.day_ends_at

    # The group: Russian, Berlin time.
    opened = next(m.text for m in bot_messages(table.group) if m.text.startswith("☀️"))
    assert (
        re.search("[а-яё]", opened) and f"{_clock(ends, 'Europe/Berlin')} (Берлин, UTC+1)" in opened
    )

    # Hands: each in its reader's language.
    for person, lang in ((alice, "en"), (bob, "de"), (carol, "uk"), (dave, "ru")):
        mine = game.player_of(person.id)
        assert mine is not None
        hand = [
            m.text for m in person.private_messages() if card_name(mine.hand[0], lang) in m.text
        ]
        assert hand, (person.first_name, lang)

    # A suggestion to carol: her prompt in Ukrainian, its deadline in Kyiv time.
    target = game.player_of(carol.id)
    assert target is not None
    typed = "; ".join(card_name(c) for c in naming(game, target.hand[0]))  # English works too
    await table.bot.say(bob, table.group, f"/suggest @carol {typed}")
    prompt = await carol.wait_private(lambda m: bool(m.buttons))
    assert literal("uk", "dm.answer_prompt") in prompt.text
    assert "(Київ, UTC+2)" in prompt.text

    # Reminders before the day ends: each in their language and zone.
    await table.bot.advance(ends - timedelta(hours=2) - table.bot.clock.now())
    expected = {
        alice: ("en", "Asia/Vladivostok", "(Vladivostok, UTC+10)"),
        bob: ("de", "Europe/Berlin", "(Berlin, UTC+1)"),
        carol: ("uk", "Europe/Kyiv", "(Київ, UTC+2)"),
        dave: ("ru", "Etc/GMT-10", "(UTC+10)"),
    }
    for person, (lang, zone, named) in expected.items():
        reminder = [m.text for m in person.private_messages() if "⏰" in m.text]
        assert reminder, person.first_name
        assert literal(lang, "dm.reminder") in reminder[-1], (lang, reminder[-1])
        assert f"{_clock(ends, zone)} {named}" in reminder[-1], (person.first_name, reminder[-1])
    group_after = [m.text for m in bot_messages(table.group)]
    assert not any("Vladivostok" in text or "Київ" in text for text in group_after)
