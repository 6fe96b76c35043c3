"""/language and /timezone in the private chat, by buttons and typed: the choice is kept,
told in the language now chosen; a forged or stale press changes nothing and is answered."""

from __future__ import annotations

import asyncio
import secrets

from fakebot import FakeMessage, FakeUser
from fakebot.messages import CallbackAnswer
from locales import t
from locales.formats import language_name
from tests.support.catalogs import literal
from tests.support.harness import Party


async def _forged(table: Party, who: FakeUser, message: FakeMessage, data: str) -> CallbackAnswer:
    future: asyncio.Future[CallbackAnswer] = asyncio.get_running_loop().create_future()
    table.server.world.callback_query(str(secrets.randbelow(10**18)), who, message, data, future)
    answer = await asyncio.wait_for(asyncio.shield(future), 5)
    await table.bot.settle()
    return answer


async def test_a_language_chosen_by_button_then_by_name_then_telegrams_again(
    table: Party,
) -> None:
    bob = table.bob
    bob.start_bot()
    await table.bot.settle()
    await table.bot.say(bob, None, "/language")
    menu = bob.private_messages()[-1]
    assert literal("en", "language.choose_auto") in menu.text
    assert [text for row in menu.buttons for text, _ in row][:8] == [
        language_name(code) for code in ("en", "ru", "uk", "be", "eo", "nl", "de", "es")
    ]
    await table.bot.press(bob, menu, "Deutsch")
    edited = bob.private_messages()[-1]
    assert edited.message_id == menu.message_id and not edited.buttons
    assert edited.text == t("de", "language.person_set", language="Deutsch")
    await table.bot.say(bob, None, "/hand")  # every private message now in German
    assert bob.private_messages()[-1].text == t("de", "hand.none")

    await table.bot.say(bob, None, "/language Українська")  # by the language's own name
    assert bob.private_messages()[-1].text == t("uk", "language.person_set", language="Українська")
    await table.bot.say(bob, None, "/language klingon")
    assert literal("uk", "error.language_choices") in bob.private_messages()[-1].text

    await table.bot.say(bob, None, "/language")
    menu = bob.private_messages()[-1]
    assert "Українська" in menu.text
    await table.bot.press(bob, menu, t("uk", "button.language_auto"))
    assert bob.private_messages()[-1].text == t("en", "language.person_auto")  # Telegram's


async def test_a_zone_chosen_by_button_typed_by_city_and_forged_presses_refused(
    table: Party,
) -> None:
    carol = table.carol
    carol.language_code = "ru"
    carol.start_bot()
    await table.bot.settle()
    await table.bot.say(carol, None, "/timezone")
    menu = carol.private_messages()[-1]
    assert literal("ru", "timezone.choose_chats") in menu.text
    labels = [text for row in menu.buttons for text, _ in row]
    assert "Москва, UTC+3" in labels and "Владивосток, UTC+10" in labels  # Russian's zones
    assert labels[-1] == t("ru", "button.timezone_chats")

    await table.bot.press(carol, menu, "Владивосток, UTC+10")
    done = carol.private_messages()[-1]
    assert done.message_id == menu.message_id
    assert literal("ru", "timezone.set") in done.text and "(Владивосток, UTC+10)" in done.text
    person = await table.bot.services.store.people.get(carol.id)
    assert person is not None and person.timezone == "Asia/Vladivostok"

    await table.bot.say(carol, None, "/timezone Атлантида")
    assert "Атлантида" in carol.private_messages()[-1].text
    assert literal("ru", "timezone.unknown") in carol.private_messages()[-1].text
    await table.bot.say(carol, None, "/timezone Нью-Йорк")
    assert "Нью-Йорк, UTC−5" in carol.private_messages()[-1].text

    await table.bot.say(carol, None, "/timezone")
    menu = carol.private_messages()[-1]
    for data in ("pz:0:Mars/Olympus", "pz:0:Europe/Moscow:extra", "pl:0:xx", "pz:0", "pl:1:de"):
        answer = await _forged(table, carol, menu, data)
        assert answer.answered and answer.text == t("ru", "toast.stale"), (data, answer)
    person = await table.bot.services.store.people.get(carol.id)
    assert person is not None and person.timezone == "America/New_York"
    assert person.language is None
    assert carol.private_messages()[-1].message_id == menu.message_id  # left as it was
    assert menu.buttons

    await table.bot.press(carol, menu, t("ru", "button.timezone_chats"))
    assert carol.private_messages()[-1].text == t("ru", "timezone.reset")
    person = await table.bot.services.store.people.get(carol.id)
    assert person is not None and person.timezone is None


async def test_the_group_is_told_its_zone_and_its_language_set_by_admins_only(
    table: Party,
) -> None:
    await table.bot.say(table.bob, table.group, "/language de")  # bob is no admin
    group = table.group.messages()
    assert group[-1].is_from_bot and "Deutsch" not in group[-1].text
    await table.bot.say(table.alice, table.group, "/language de")
    assert group_text(table) == t("de", "language.set", language="Deutsch")
    await table.bot.say(table.alice, table.group, "/settings timezone Minsk")
    await table.bot.say(table.bob, table.group, "/timezone")
    assert "Minsk, UTC+3" in group_text(table)
    assert literal("de", "timezone.group") in group_text(table)


def group_text(table: Party) -> str:
    return [m for m in table.group.messages() if m.is_from_bot][-1].text
