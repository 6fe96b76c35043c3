"""The bot added to a group introduces itself once (and not again when removed and added
back within a day, across a restart too); its language buttons are the chat admins'; and
it says once, in the chat's language, what rights it lacks."""

from __future__ import annotations

import asyncio
import re
import secrets
from datetime import timedelta
from pathlib import Path

from fakebot import FakeGroup, FakeMessage, FakeUser
from fakebot.messages import CallbackAnswer
from locales import LANGUAGES, t
from locales.formats import language_name
from tests.support.harness import BotHarness, Clock, Party, bot_messages, database_url


def plain(reader: str, key: str, /, **values: object) -> str:
    """A catalog message as Telegram shows it (tags gone)."""
    return re.sub(r"<[^>]+>", "", t(reader, key, **values))


def labels(message: FakeMessage) -> list[str]:
    return [text for row in message.buttons for text, _ in row]


def added(table: Party, *, admin: bool) -> FakeGroup:
    """A new group (alice its owner, bob a member) that adds the bot."""
    return table.server.add_group(
        "New club", admins=[table.alice], members=[table.bob], bot_admin=admin, announce=True
    )


async def forged(table: Party, who: FakeUser, message: FakeMessage, data: str) -> CallbackAnswer:
    """A press with button data the message does not carry."""
    future: asyncio.Future[CallbackAnswer] = asyncio.get_running_loop().create_future()
    table.server.world.callback_query(str(secrets.randbelow(10**18)), who, message, data, future)
    answer = await asyncio.wait_for(asyncio.shield(future), 5)
    await table.bot.settle()
    return answer


async def test_added_it_introduces_itself_once_not_again_within_a_day(
    table: Party, tmp_path: Path
) -> None:
    group = added(table, admin=True)
    await table.bot.settle()
    [intro] = bot_messages(group)
    assert intro.text == plain("en", "intro.group")
    assert labels(intro) == [
        f"✅ {language_name(code)}" if code == "en" else language_name(code) for code in LANGUAGES
    ]

    group.remove_bot()
    table.bot.clock.advance(timedelta(hours=23))
    group.add_bot(admin=True)
    await table.bot.settle()
    assert bot_messages(group) == [intro], "added back within a day: no second introduction"

    # What it remembers survives a restart.
    await table.bot.stop()
    again = BotHarness(table.server, database_url(tmp_path), Clock(table.bot.clock.now()))
    await again.start()
    try:
        group.remove_bot()
        group.add_bot(admin=True)
        await again.settle()
        assert bot_messages(group) == [intro]
        group.remove_bot()
        again.clock.advance(timedelta(hours=25))  # more than a day after the introduction
        group.add_bot(admin=True)
        await again.settle()
        assert [m.text for m in bot_messages(group)] == [plain("en", "intro.group")] * 2
    finally:
        await again.stop()


async def test_no_introduction_where_a_game_is_under_way(table: Party) -> None:
    await table.bot.say(table.alice, table.group, "/newgame")
    before = bot_messages(table.group)
    table.group.remove_bot()
    table.group.add_bot(admin=True)
    await table.bot.settle()
    assert bot_messages(table.group) == before


async def test_only_an_admin_sets_the_chats_language_from_the_introduction(table: Party) -> None:
    group = added(table, admin=True)
    await table.bot.settle()
    [intro] = bot_messages(group)
    chats = table.bot.services.store.chats

    refused = await table.bot.press(table.bob, intro, "Deutsch")
    assert refused.show_alert and refused.text == t("en", "error.admin_only")
    assert (await chats.get(group.id)).language is None
    assert bot_messages(group)[0].text == plain("en", "intro.group")

    done = await table.bot.press(table.alice, intro, "Deutsch")
    assert done.text == plain("en", "language.set", language="Deutsch")
    assert (await chats.get(group.id)).language == "de"
    [again] = bot_messages(group)  # the same post, said again in German
    assert again.message_id == intro.message_id
    assert again.text == plain("de", "intro.group")
    assert "✅ Deutsch" in labels(again) and "English" in labels(again)
    await table.bot.say(table.bob, group, "/help")  # as `/language de` would have it
    assert bot_messages(group)[-1].text == plain("de", "help.group")

    # Forged or stale presses are answered and change nothing.
    help_post = bot_messages(group)[-1]
    for message, data in (
        (again, "cl:0:xx"),
        (again, "cl:1:es"),
        (again, "cl:0:es:more"),
        (again, "cl:0"),
        (help_post, "cl:0:es"),  # not the introduction
    ):
        answer = await forged(table, table.alice, message, data)
        assert answer.answered and answer.text == t("en", "toast.stale"), data
    assert (await chats.get(group.id)).language == "de"
    assert bot_messages(group)[0].text == plain("de", "intro.group")


async def test_added_without_the_rights_it_needs_it_says_so_once(table: Party) -> None:
    group = added(table, admin=False)
    await table.bot.settle()
    assert [m.text for m in bot_messages(group)] == [
        plain("en", "intro.group"),
        plain("en", "rights.not_admin"),
    ]
    told = len(bot_messages(group))

    group.remove_bot()  # added back, still no admin: not told again
    group.add_bot()
    await table.bot.settle()
    assert len(bot_messages(group)) == told

    group.set_bot_status("administrator", can_pin_messages=False)  # an admin that cannot pin
    await table.bot.settle()
    assert bot_messages(group)[-1].text == plain("en", "rights.no_pin")
    group.set_bot_status("administrator", can_pin_messages=False, can_invite_users=False)
    await table.bot.settle()
    assert len(bot_messages(group)) == told + 1, "the same lack: not told again"

    group.set_bot_status("administrator")  # every right: nothing to say
    await table.bot.settle()
    await table.bot.say(table.alice, group, "/language ru")
    told = len(bot_messages(group))
    group.set_bot_status("member")  # demoted later: told once, in the chat's language
    await table.bot.settle()
    assert [m.text for m in bot_messages(group)[told:]] == [plain("ru", "rights.not_admin")]
    group.set_bot_status("administrator", can_delete_messages=False, can_pin_messages=False)
    await table.bot.settle()
    assert bot_messages(group)[-1].text == plain("ru", "rights.no_delete_no_pin")
