"""The fake Bot API with a polling PTB application, getUpdates, faults, forums and chats,
and as a separate process."""

from __future__ import annotations

import asyncio
import time

import httpx
import pytest
from telegram import (
    Bot,
    Update,
)
from telegram.error import BadRequest, NetworkError, RetryAfter
from telegram.ext import Application, CallbackQueryHandler, CommandHandler, ContextTypes

import fakebot.client
from fakebot import FakeTelegram, FakeTelegramClient
from fakebot.client import RECHECK
from tests.fakebot.shared import TOKEN, keyboard


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
    message = alice.private_chat.message(sent.message_id)
    assert message is not None
    press = asyncio.create_task(alice.press(message, "A", timeout=0.1))
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


async def test_wait_call_waits_for_a_matching_message_and_calls_since() -> None:
    client = await FakeTelegramClient.launch(TOKEN)
    try:
        alice = await client.add_user("Alice", username="alice")
        bob = await client.add_user("Bob", username="bob")
        await alice.start_bot()
        await bob.start_bot()
        before = time.time()
        async with Bot(TOKEN, base_url=client.base_url) as bot:
            waiting = asyncio.create_task(
                client.wait_call(after=before, chat_id=alice.id, pattern=r"cards \d", timeout=5)
            )
            await asyncio.sleep(0.2)
            assert not waiting.done()
            await bot.send_message(bob.id, "Your cards 1")  # another chat
            await bot.send_message(alice.id, "Your turn")  # no match
            await bot.send_message(alice.id, "Your cards 2")
            call = await waiting
            assert (call["params"]["text"], call["params"]["chat_id"]) == ("Your cards 2", alice.id)
            assert before < call["at"] <= time.time()
            # Already logged: found at once; and nothing newer times out.
            again = await client.wait_call(after=before, chat_id=alice.id, pattern="cards")
            assert again["at"] == call["at"]
            with pytest.raises(ValueError, match="time-out"):
                await client.wait_call(after=call["at"], chat_id=alice.id, timeout=0.3)
            newer = await client.calls("sendMessage", since=before)
            assert [c["params"]["text"] for c in newer] == [
                "Your cards 1",
                "Your turn",
                call["params"]["text"],
            ]
            assert await client.calls("sendMessage", since=call["at"]) == []
    finally:
        await client.aclose()


async def test_wait_for_checks_again_at_each_bot_call_to_its_chats(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """No polling: a client's wait_for checks its condition when the bot calls about one of
    the watched chats (a call about another chat does not wake it); one watching no chat at
    least every RECHECK seconds, for what the fake cannot see."""
    client = await FakeTelegramClient.launch(TOKEN)
    try:
        alice = await client.add_user("Alice", username="alice")
        bob = await client.add_user("Bob", username="bob")
        await alice.start_bot()
        await bob.start_bot()
        checks: list[float] = []

        async def alice_told() -> bool:
            checks.append(time.monotonic())
            return any("ready" in m.text for m in await alice.private_messages())

        async with Bot(TOKEN, base_url=client.base_url) as bot:
            monkeypatch.setattr(fakebot.client, "CHATS_RECHECK", 30.0)  # only a call wakes it
            waiting = asyncio.create_task(client.wait_for(alice_told, 10, chats=[alice.id]))
            await asyncio.sleep(0.2)
            assert len(checks) == 1, "checked once, then waiting in the fake"
            for n in range(5):
                await bot.send_message(bob.id, f"not for Alice {n}")
            await asyncio.sleep(0.2)
            assert len(checks) == 1, "calls about another chat wake nobody watching Alice"
            started = time.monotonic()
            await bot.send_message(alice.id, "ready")
            assert await waiting is True
            assert len(checks) == 2 and checks[-1] - started < 1.0
            monkeypatch.undo()

            outside: list[int] = []  # something the fake cannot see
            asyncio.get_running_loop().call_later(0.1, outside.append, 1)
            started = time.monotonic()
            assert await client.wait_for(lambda: outside, 5) == [1]
            assert time.monotonic() - started <= RECHECK + 0.5, "checked again after RECHECK"
    finally:
        await client.aclose()
