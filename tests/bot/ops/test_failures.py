"""When a handler fails (a bug, a database gone), the person is still answered: a button
press with an alert, a command with a reply in their language, in the chat (and thread)
they wrote in; the group's talk the bot only watches, with nothing. The failure is logged."""

from __future__ import annotations

from typing import NoReturn

import pytest

from bot.directory import Directory
from bot.handlers import info as info_handlers
from bot.handlers import notebook as notebook_handlers
from bot.services import Services
from locales import t
from tests.support.harness import Party, bot_messages
from tests.support.play import open_and_start


def broken(*args: object, **kwargs: object) -> NoReturn:
    raise RuntimeError("a bug in the handler")


async def test_a_failed_command_or_press_is_answered_in_the_persons_language(
    table: Party, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    table.carol.language_code = "ru"
    await open_and_start(table)
    await table.bot.say(table.bob, None, "/hand")
    hand = table.bob.private_messages()[-1]  # with its notebook button

    monkeypatch.setattr(notebook_handlers, "send_notebook", broken)
    for person, language in ((table.bob, "en"), (table.carol, "ru")):
        await table.bot.say(person, None, "/notebook")
        assert person.private_messages()[-1].text == t(language, "reply.failed")

    monkeypatch.setattr(info_handlers, "status_args", broken)
    command = await table.bot.say(table.dave, table.group, "/status")
    reply = bot_messages(table.group)[-1]
    assert reply.text == t("en", "reply.failed")
    assert reply.reply_to is not None and reply.reply_to.message_id == command.message_id

    monkeypatch.setattr(info_handlers, "remember", broken)  # the group's own talk, watched
    posts = len(bot_messages(table.group))
    await table.bot.say(table.carol, table.group, "who has the rope?")
    assert len(bot_messages(table.group)) == posts  # no reply to talk the bot only watched

    monkeypatch.setattr(notebook_handlers, "seat_in", broken)
    answer = await table.bot.press(table.bob, hand, t("en", "button.notebook"))
    assert answer.answered and answer.show_alert and answer.text == t("en", "toast.failed")

    failures = [r for r in caplog.records if r.getMessage() == "handler failed"]
    assert len(failures) == 5
    assert all(r.exc_info and "a bug in the handler" in str(r.exc_info[1]) for r in failures)


async def test_with_the_outbox_failing_too_the_failure_is_told_straight(
    table: Party, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The database gone: the reply cannot be queued, nor the person's language read, so
    it goes straight to Telegram in the language the person's Telegram app reports; a
    press gets its alert the same way."""
    table.carol.language_code = "ru"
    await open_and_start(table)
    await table.bot.say(table.carol, None, "/hand")
    hand = table.carol.private_messages()[-1]  # with its notebook button
    monkeypatch.setattr(notebook_handlers, "send_notebook", broken)
    monkeypatch.setattr(notebook_handlers, "seat_in", broken)
    monkeypatch.setattr(info_handlers, "status_args", broken)
    monkeypatch.setattr(Services, "tell", broken)
    monkeypatch.setattr(Directory, "person_language", broken)

    await table.bot.say(table.carol, None, "/notebook")
    assert table.carol.private_messages()[-1].text == t("ru", "reply.failed")
    command = await table.bot.say(table.dave, table.group, "/status")
    reply = bot_messages(table.group)[-1]
    assert reply.text == t("en", "reply.failed")
    assert reply.reply_to is not None and reply.reply_to.message_id == command.message_id
    answer = await table.bot.press(table.carol, hand, t("ru", "button.notebook"))
    assert answer.answered and answer.show_alert and answer.text == t("ru", "toast.failed")
