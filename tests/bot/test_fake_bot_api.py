"""The fake Telegram Bot API server (tests/fakebot) behaves like Telegram for PTB and raw HTTP."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator

import httpx
import pytest
from telegram import (
    Bot,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    ReplyParameters,
    Update,
)
from telegram.error import BadRequest, Forbidden, NetworkError, RetryAfter
from telegram.ext import Application, CallbackQueryHandler, CommandHandler, ContextTypes

from tests.fakebot import FakeTelegram, FakeTelegramClient

TOKEN = "123:ABC"


@pytest.fixture
async def server() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram(TOKEN) as fake:
        yield fake


@pytest.fixture
async def bot(server: FakeTelegram) -> AsyncIterator[Bot]:
    async with Bot(TOKEN, base_url=server.base_url) as client:
        yield client


@pytest.fixture
async def http(server: FakeTelegram) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=f"{server.url}/bot{TOKEN}/") as client:
        yield client


def keyboard(*buttons: tuple[str, str]) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup([[InlineKeyboardButton(t, callback_data=d) for t, d in buttons]])


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


# -- a real PTB application -------------------------------------------------------------------
async def test_ptb_application_polls_commands_and_buttons(server: FakeTelegram) -> None:
    alice = server.add_user("Alice", username="alice")
    group = server.add_group("Cluedo club", admins=[alice])

    async def newgame(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.effective_message is not None
        await update.effective_message.reply_text(
            "<b>New game</b> by @alice", parse_mode="HTML", reply_markup=keyboard(("Join", "join"))
        )

    async def join(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        assert query is not None
        await query.answer("You joined")
        await query.edit_message_text(f"{query.from_user.first_name} joined")

    app = Application.builder().token(TOKEN).base_url(server.base_url).build()
    app.add_handler(CommandHandler("newgame", newgame))
    app.add_handler(CallbackQueryHandler(join))
    async with app:
        await app.start()
        assert app.updater is not None
        await app.updater.start_polling(poll_interval=0, timeout=1)
        try:
            alice.send(group, "just chatting")  # privacy mode: the bot does not see this
            command = alice.send(group, "/newgame@whodunit_bot")
            reply = await server.wait_for(
                lambda: next((m for m in group.messages() if m.is_from_bot), None)
            )
            assert reply.reply_to is command and reply.bold == ["New game"]
            answer = await alice.press(reply, "Join")
            assert answer.answered and answer.text == "You joined"
            await server.wait_for(lambda: reply.text == "Alice joined")
            assert reply.buttons == [] and reply.edits[0].text == "New game by @alice"
        finally:
            await app.updater.stop()
            await app.stop()
    delivered = [c.response["result"] for c in server.calls_to("getUpdates") if c.ok]
    texts = [u["message"]["text"] for batch in delivered for u in batch if "message" in u]
    assert "just chatting" not in texts and "/newgame@whodunit_bot" in texts


# -- getUpdates ---------------------------------------------------------------------------------
async def test_get_updates_offset_limit_and_long_polling(bot: Bot, server: FakeTelegram) -> None:
    alice, bob, carol = (server.add_user(n) for n in ("Alice", "Bob", "Carol"))
    alice.start_bot()
    bob.start_bot()
    first, second = await bot.get_updates()
    assert [u.update_id for u in await bot.get_updates()] == [
        first.update_id,
        second.update_id,
    ]  # not confirmed
    assert [u.update_id for u in await bot.get_updates(limit=1)] == [first.update_id]
    assert [u.update_id for u in await bot.get_updates(offset=second.update_id)] == [
        second.update_id
    ]
    assert [u.update_id for u in await bot.get_updates()] == [
        second.update_id
    ]  # first is forgotten
    carol.start_bot()
    alice.send_private("hello")
    last = await bot.get_updates(offset=-1)
    assert [u.effective_message.text for u in last] == ["hello"]  # type: ignore[union-attr]
    assert len(await bot.get_updates()) == 1

    started = time.monotonic()
    poll = asyncio.create_task(bot.get_updates(offset=last[0].update_id + 1, timeout=5))
    await asyncio.sleep(0.2)
    bob.send_private("I have the rope")
    [update] = await poll
    assert update.effective_message.text == "I have the rope"  # type: ignore[union-attr]
    assert time.monotonic() - started < 2

    started = time.monotonic()
    assert await bot.get_updates(offset=update.update_id + 1, timeout=1) == ()
    assert time.monotonic() - started >= 0.9


async def test_allowed_updates_filter_new_updates(bot: Bot, server: FakeTelegram) -> None:
    alice = server.add_user("Alice")
    alice.start_bot()
    assert await bot.get_updates(allowed_updates=["callback_query"]) != ()  # created before
    sent = await bot.send_message(alice.id, "Pick", reply_markup=keyboard(("A", "a")))
    alice.send_private("ignored")
    press = asyncio.create_task(
        alice.press(alice.private_chat.message(sent.message_id), "A", timeout=0.1)
    )
    kinds = [
        next(k for k in u if k != "update_id")
        for u in await server.wait_for(lambda: server.updates[1:])
    ]
    assert kinds == ["callback_query"]
    assert not (await press).answered
    await bot.get_updates(allowed_updates=[])  # back to the default: everything but reactions
    alice.send_private("seen")
    assert server.updates[-1]["message"]["text"] == "seen"


async def test_second_poller_terminates_the_first(http: httpx.AsyncClient) -> None:
    # (PTB's own getUpdates connection pool has a single connection, so use raw HTTP)
    first = asyncio.create_task(http.post("getUpdates", data={"timeout": "3"}))
    await asyncio.sleep(0.1)
    second = await http.post("getUpdates", data={"timeout": "0"})
    assert second.json() == {"ok": True, "result": []}
    conflict = await first
    assert conflict.status_code == 409
    assert conflict.json()["description"].startswith(
        "Conflict: terminated by other getUpdates request"
    )


@pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")
async def test_flood_control_and_server_errors(bot: Bot, server: FakeTelegram) -> None:
    group = server.add_group("Club")
    server.fail_next("sendMessage", retry_after=3)
    with pytest.raises(RetryAfter) as caught:
        await bot.send_message(group.id, "x")
    wait = caught.value.retry_after
    assert (wait.total_seconds() if hasattr(wait, "total_seconds") else wait) == 3
    assert server.calls[-1].response["parameters"] == {"retry_after": 3}
    assert group.messages() == []
    await bot.send_message(group.id, "x")  # only the next call fails
    server.fail_next("getChat", 502)
    with pytest.raises(NetworkError):
        await bot.get_chat(group.id)


# -- forums, chats, settings -------------------------------------------------------------------
async def test_forum_topics(bot: Bot, server: FakeTelegram) -> None:
    alice = server.add_user("Alice")
    forum = server.add_group("Forum", forum=True, admins=[alice])
    topic = forum.add_topic("Game 1")
    sent = await bot.send_message(forum.id, "Round 1", message_thread_id=topic.thread_id)
    assert sent.message_thread_id == topic.thread_id and sent.is_topic_message
    assert [m.text for m in forum.messages(topic=topic)] == ["", "Round 1"]  # the topic's creation
    with pytest.raises(BadRequest, match=r"(?i)message thread not found"):
        await bot.send_message(forum.id, "x", message_thread_id=12345)
    posted = alice.send(forum, "/move hall", topic=topic)
    assert posted.thread_id == topic.thread_id
    [*_, update] = await bot.get_updates()
    assert update.message is not None and update.message.message_thread_id == topic.thread_id
    assert (
        update.message.reply_to_message is not None
    )  # Telegram's implicit reply to the topic root
    assert update.message.reply_to_message.forum_topic_created is not None
    plain = server.add_group("Plain")
    with pytest.raises(BadRequest, match=r"(?i)message thread not found"):
        await bot.send_message(plain.id, "x", message_thread_id=1)


async def test_chat_information_and_settings(bot: Bot, server: FakeTelegram) -> None:
    alice, bob = server.add_user("Alice", username="alice"), server.add_user("Bob")
    group = server.add_group("Club", admins=[alice], members=[bob], username="cluedoclub")
    assert (await bot.get_chat("@cluedoclub")).id == group.id
    assert (await bot.get_chat_member(group.id, alice.id)).status == "creator"
    assert (await bot.get_chat_member(group.id, bob.id)).status == "member"
    assert (await bot.get_chat_member(group.id, server.add_user("Carol").id)).status == "left"
    assert [m.user.id for m in await bot.get_chat_administrators(group.id)] == [alice.id]
    assert await bot.get_chat_member_count(group.id) == 3
    await bot.send_chat_action(group.id, "typing")
    with pytest.raises(BadRequest, match=r"(?i)wrong parameter action"):
        await bot.send_chat_action(group.id, "dancing")

    from telegram import BotCommand, BotCommandScopeAllGroupChats, MenuButtonCommands

    commands = [BotCommand("newgame", "Start a game"), BotCommand("join", "Join")]
    await bot.set_my_commands(commands, scope=BotCommandScopeAllGroupChats(), language_code="en")
    assert [c.command for c in await bot.get_my_commands(BotCommandScopeAllGroupChats(), "en")] == [
        "newgame",
        "join",
    ]
    assert server.commands({"type": "all_group_chats"}, "en")[0]["description"] == "Start a game"
    with pytest.raises(BadRequest, match=r"(?i)BOT_COMMAND_INVALID"):
        await bot.set_my_commands([BotCommand("New-Game", "x")])
    await bot.delete_my_commands(BotCommandScopeAllGroupChats(), "en")
    assert await bot.get_my_commands(BotCommandScopeAllGroupChats(), "en") == ()
    assert await bot.set_chat_menu_button(menu_button=MenuButtonCommands())


# -- a separate process -----------------------------------------------------------------------
async def test_standalone_process_with_client() -> None:
    client = await FakeTelegramClient.launch(TOKEN)
    try:
        alice = await client.add_user("Alice", username="alice")
        group = await client.add_group("Cluedo club", admins=[alice])
        async with Bot(TOKEN, base_url=client.base_url) as bot:
            await bot.send_message(
                group.id, "<b>Welcome</b>", parse_mode="HTML", reply_markup=keyboard(("Join", "j"))
            )
            [welcome] = await group.messages()
            assert (welcome.text, welcome.bold, welcome.buttons) == (
                "Welcome",
                ["Welcome"],
                [[("Join", "j")]],
            )
            command = await alice.send(group, "/newgame")
            [update] = await bot.get_updates()
            assert update.message is not None and update.message.message_id == command.message_id

            press = asyncio.create_task(alice.press(welcome, "Join"))
            updates = await client.wait_for(lambda: bot.get_updates(offset=update.update_id + 1))
            await updates[0].callback_query.answer("ok")
            assert (await press).text == "ok"

            await alice.start_bot("join_42")
            await bot.send_message(alice.id, "Your cards")
            assert (await alice.wait_private(lambda m: "cards" in m.text)).text == "Your cards"
            assert [c["method"] for c in await client.calls("answerCallbackQuery")] == [
                "answerCallbackQuery"
            ]
    finally:
        await client.aclose()
    assert client.process is not None and client.process.returncode is not None
