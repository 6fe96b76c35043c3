"""The fake Telegram Bot API server behaves like Telegram for PTB and raw HTTP."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest
from telegram import (
    Bot,
    ReplyParameters,
)
from telegram.error import BadRequest, Forbidden

from fakebot import FakeTelegram
from tests.fakebot.shared import keyboard


# -- basics ----------------------------------------------------------------------------------
async def test_get_me(bot: Bot, server: FakeTelegram) -> None:
    me = await bot.get_me()
    assert (me.id, me.username, me.is_bot) == (1000, "whodunit_bot", True)
    assert server.calls[-1].method == "getMe" and server.calls[-1].ok


async def test_send_to_group_and_started_user(bot: Bot, server: FakeTelegram) -> None:
    alice = server.add_user("Alice", username="alice")
    group = server.add_group("Cluedo club", admins=[alice])
    sent = await bot.send_message(
        group.id,
        "<b>Miss Scarlet</b> with the <b>rope</b> in the <i>hall</i> &amp; more",
        parse_mode="HTML",
        reply_markup=keyboard(("Join", "join:1")),
    )
    assert sent.chat.id == group.id and sent.text == "Miss Scarlet with the rope in the hall & more"
    [message] = group.messages()
    assert message.message_id == sent.message_id and message.from_user is server.bot
    assert message.bold == ["Miss Scarlet", "rope"] and message.spans("italic") == ["hall"]
    assert message.html.startswith("<b>Miss Scarlet</b>")
    assert message.buttons == [[("Join", "join:1")]]

    alice.start_bot(payload="join_42")
    private = await bot.send_message(alice.id, "Your hand: …")
    assert private.chat.type == "private"
    assert [m.text for m in alice.private_messages()] == ["Your hand: …"]
    assert alice.private_chat.messages()[0].text == "/start join_42"


async def test_forbidden_for_users_who_never_started_or_blocked(
    bot: Bot, server: FakeTelegram
) -> None:
    bob = server.add_user("Bob")
    with pytest.raises(Forbidden, match=r"(?i)bot can't initiate conversation with a user"):
        await bot.send_message(bob.id, "hi")
    bob.start_bot()
    bob.block_bot()
    with pytest.raises(Forbidden, match=r"(?i)bot was blocked by the user"):
        await bot.send_message(bob.id, "hi")
    bob.unblock_bot()
    await bot.send_message(bob.id, "welcome back")
    with pytest.raises(BadRequest, match=r"(?i)chat not found"):
        await bot.send_message(-100999, "hi")


# -- validation against api.json ------------------------------------------------------------
async def test_unknown_method_is_404_and_bad_token_401(
    http: httpx.AsyncClient, server: FakeTelegram
) -> None:
    response = await http.post("sendTelepathy", data={"chat_id": "1"})
    assert response.status_code == 404
    assert response.json() == {"ok": False, "error_code": 404, "description": "Not Found"}
    async with httpx.AsyncClient() as raw:
        wrong = await raw.post(f"{server.url}/bot123:WRONG/getMe")
        assert (wrong.status_code, wrong.json()["description"]) == (401, "Unauthorized")
    # Bot API method names are case-insensitive; real but unimplemented methods are a 400
    assert (await http.get("getme")).json()["result"]["id"] == 1000
    response = await http.post("sendDice", data={"chat_id": "1"})
    assert (
        response.status_code == 400
        and "not implemented in the fake" in response.json()["description"]
    )


async def test_fields_are_checked(http: httpx.AsyncClient, server: FakeTelegram) -> None:
    group = server.add_group("Club")
    unknown = await http.post(
        "sendMessage", data={"chat_id": group.id, "text": "x", "colour": "red"}
    )
    assert unknown.status_code == 400 and '"colour"' in unknown.json()["description"]
    missing = await http.post("sendMessage", data={"text": "x"})
    assert (
        missing.status_code == 400
        and missing.json()["description"] == "Bad Request: chat_id is required"
    )
    empty = await http.post("sendMessage", data={"chat_id": group.id})
    assert empty.json()["description"] == "Bad Request: message text is empty"
    wrong = await http.post(
        "sendMessage", data={"chat_id": group.id, "text": "x", "message_thread_id": "abc"}
    )
    assert wrong.status_code == 400 and "Integer" in wrong.json()["description"]
    bad_nested = await http.post(
        "sendMessage",
        data={
            "chat_id": group.id,
            "text": "x",
            "reply_markup": json.dumps(
                {"inline_keyboard": [[{"text": "a", "callback_data": "b", "colour": 1}]]}
            ),
        },
    )
    assert bad_nested.status_code == 400 and '"colour"' in bad_nested.json()["description"]
    text_only_button = {"inline_keyboard": [[{"text": "a"}]]}
    refused = await http.post(
        "sendMessage", json={"chat_id": group.id, "text": "x", "reply_markup": text_only_button}
    )
    assert refused.status_code == 400
    # JSON bodies with native values and multipart bodies are accepted too
    ok_json = await http.post(
        "sendMessage", json={"chat_id": group.id, "text": "x", "disable_notification": True}
    )
    assert ok_json.json()["ok"] is True
    ok_multipart = await http.post(
        "sendMessage", files={"chat_id": (None, str(group.id)), "text": (None, "y")}
    )
    assert ok_multipart.json()["result"]["text"] == "y"


async def test_text_length_limits(bot: Bot, server: FakeTelegram) -> None:
    group = server.add_group("Club")
    with pytest.raises(BadRequest, match=r"(?i)message is too long"):
        await bot.send_message(group.id, "x" * 4097)
    await bot.send_message(group.id, "x" * 4096)
    await bot.send_message(group.id, f"<b>{'x' * 4096}</b>", parse_mode="HTML")  # after parsing
    with pytest.raises(BadRequest, match=r"(?i)message text is empty"):
        await bot.send_message(group.id, "<b> </b>\n", parse_mode="HTML")


async def test_callback_data_limit(bot: Bot, server: FakeTelegram) -> None:
    group = server.add_group("Club")
    with pytest.raises(BadRequest, match=r"(?i)BUTTON_DATA_INVALID"):
        await bot.send_message(group.id, "x", reply_markup=keyboard(("a", "d" * 65)))
    with pytest.raises(BadRequest, match=r"(?i)BUTTON_DATA_INVALID"):
        await bot.send_message(group.id, "x", reply_markup=keyboard(("a", "é" * 33)))  # 66 bytes
    await bot.send_message(group.id, "x", reply_markup=keyboard(("a", "d" * 64)))


@pytest.mark.parametrize(
    ("html", "error"),
    [
        ("<b>x", "Can't find end tag corresponding to start tag"),
        ("<foo>x</foo>", 'Unsupported start tag "foo"'),
        ("a < b", 'Unsupported start tag ""'),
        ("<b>x</i>", "Unmatched end tag"),
        ("&foo; bar", 'Unsupported HTML entity "&foo;"'),
        ('<span class="x">y</span>', 'Tag "span" must have class "tg-spoiler"'),
    ],
)
async def test_malformed_html_is_refused(
    bot: Bot, server: FakeTelegram, html: str, error: str
) -> None:
    group = server.add_group("Club")
    with pytest.raises(BadRequest, match=r"(?i)can't parse entities"):
        await bot.send_message(group.id, html, parse_mode="HTML")
    description = server.calls[-1].response["description"]  # PTB lower-cases its copy
    assert description.startswith("Bad Request: can't parse entities: ") and error in description
    assert group.messages() == []


async def test_html_that_telegram_accepts(bot: Bot, server: FakeTelegram) -> None:
    group = server.add_group("Club")
    html = (
        "AT&T & co &lt;3 &#9829; <B>bold</B> <tg-spoiler>s</tg-spoiler> "
        "<a href='https://x.org'>l</a> "
        '<pre><code class="language-python">x = 1</code></pre><blockquote expandable>q</blockquote>'
    )
    sent = await bot.send_message(group.id, html, parse_mode="HTML")
    assert sent.text == "AT&T & co <3 ♥ bold s l x = 1q"
    kinds = [e.type for e in sent.entities]
    assert kinds == ["bold", "spoiler", "text_link", "pre", "expandable_blockquote"]
    assert sent.entities[3].language == "python"


# -- editing, replies, callbacks --------------------------------------------------------------
async def test_edit_semantics(bot: Bot, server: FakeTelegram) -> None:
    group = server.add_group("Club")
    sent = await bot.send_message(group.id, "Vote", reply_markup=keyboard(("Yes", "y")))
    with pytest.raises(BadRequest, match=r"(?i)message is not modified"):
        await bot.edit_message_text(
            "Vote", group.id, sent.message_id, reply_markup=keyboard(("Yes", "y"))
        )
    with pytest.raises(BadRequest, match=r"(?i)message to edit not found"):
        await bot.edit_message_text("Vote", group.id, 999)
    await bot.edit_message_text("<b>Closed</b>", group.id, sent.message_id, parse_mode="HTML")
    [message] = group.messages()
    assert (message.text, message.bold, message.buttons) == (
        "Closed",
        ["Closed"],
        [],
    )  # keyboard dropped
    assert [v.text for v in message.edits] == ["Vote"]
    await bot.edit_message_reply_markup(
        group.id, sent.message_id, reply_markup=keyboard(("Again", "a"))
    )
    assert message.buttons == [[("Again", "a")]]
    assert await bot.delete_message(group.id, sent.message_id)
    with pytest.raises(BadRequest, match=r"(?i)message to delete not found"):
        await bot.delete_message(group.id, sent.message_id)


async def test_replies(bot: Bot, server: FakeTelegram) -> None:
    alice = server.add_user("Alice")
    group = server.add_group("Club", members=[alice])
    question = alice.send(group, "/accuse")
    answer = await bot.send_message(
        group.id, "Who?", reply_parameters=ReplyParameters(question.message_id)
    )
    assert (
        answer.reply_to_message is not None
        and answer.reply_to_message.message_id == question.message_id
    )
    assert group.messages()[-1].reply_to is question
    with pytest.raises(BadRequest, match=r"(?i)message to be replied not found"):
        await bot.send_message(group.id, "x", reply_parameters=ReplyParameters(999))
    loose = ReplyParameters(999, allow_sending_without_reply=True)
    assert (await bot.send_message(group.id, "x", reply_parameters=loose)).reply_to_message is None


async def test_callback_answers(bot: Bot, server: FakeTelegram) -> None:
    alice = server.add_user("Alice")
    alice.start_bot()
    sent = await bot.send_message(alice.id, "Pick", reply_markup=keyboard(("Rope", "w:rope")))
    press = asyncio.create_task(alice.press(alice.private_messages()[0], "Rope"))
    [update] = await server.wait_for(lambda: [u for u in server.updates if "callback_query" in u])
    query = update["callback_query"]
    assert query["data"] == "w:rope" and query["message"]["message_id"] == sent.message_id
    with pytest.raises(BadRequest, match=r"(?i)MESSAGE_TOO_LONG"):
        await bot.answer_callback_query(query["id"], text="x" * 201)
    assert await bot.answer_callback_query(query["id"], text="Noted", show_alert=True)
    answer = await press
    assert (answer.answered, answer.text, answer.show_alert) == (True, "Noted", True)
    with pytest.raises(BadRequest, match=r"(?i)query is too old"):
        await bot.answer_callback_query(query["id"])
    unanswered = await alice.press(
        alice.private_messages()[0], callback_data="w:rope", timeout=0.05
    )
    assert not unanswered.answered
