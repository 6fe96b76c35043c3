"""Whatever the bot does not understand gets a short answer pointing at /help: anything
written to it in private that is none of its commands, and in a group a command that names
the bot but is none of its own. Other bots' commands and the group's talk get none."""

from __future__ import annotations

from locales import t
from tests.support.harness import Party, bot_messages


async def test_what_the_bot_does_not_understand_is_answered_with_help(table: Party) -> None:
    table.carol.language_code = "ru"
    for person in (table.bob, table.carol):
        person.start_bot()
    await table.bot.settle()

    for person, text, language in (
        (table.bob, "hello?", "en"),
        (table.bob, "/nonsense", "en"),
        (table.carol, "привет", "ru"),
    ):
        before = len(person.private_messages())
        await table.bot.say(person, None, text)
        said = [m.text for m in person.private_messages()[before:]]
        assert said == [t(language, "reply.not_understood")]

    before = len(table.bob.private_messages())
    await table.bot.say(table.bob, None, "/help")  # its own commands are answered as ever
    said = [m.text for m in table.bob.private_messages()[before:]]
    assert len(said) == 1 and "/notebook" in said[0]

    posts = len(bot_messages(table.group))
    for text in ("/nonsense", "/nonsense@another_bot", "who has the rope?"):
        await table.bot.say(table.bob, table.group, text)
    assert len(bot_messages(table.group)) == posts
    name = table.bot.services.bot_username
    command = await table.bot.say(table.bob, table.group, f"/nonsense@{name}")
    [reply] = bot_messages(table.group)[posts:]
    assert reply.text == t("en", "reply.not_understood")
    assert reply.reply_to is not None and reply.reply_to.message_id == command.message_id
