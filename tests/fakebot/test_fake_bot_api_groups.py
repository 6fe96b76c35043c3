"""The fake Bot API's group life: a basic group upgraded to a supergroup, the bot kicked
and added back, each as Telegram answers and tells the bot."""

from __future__ import annotations

from typing import Any

import pytest
from telegram import Bot, ChatMemberAdministrator, Update
from telegram.error import BadRequest, ChatMigrated, Forbidden

from fakebot import FakeTelegram, FakeTelegramClient


def _updates_of(server: FakeTelegram, kind: str) -> list[dict[str, Any]]:
    return [u[kind] for u in server.updates if kind in u]


def _conforms(server: FakeTelegram) -> None:
    """Every queued update is an Update as the Bot API documents it."""
    for update in server.updates:
        assert server.spec.conformance_errors("Update", update) == [], update


async def test_a_basic_group_upgraded_to_a_supergroup(bot: Bot, server: FakeTelegram) -> None:
    alice = server.add_user("Alice", username="alice")
    bob = server.add_user("Bob")
    old = server.add_group("Club", admins=[alice], members=[bob], basic=True, bot_admin=True)
    assert old.to_api()["type"] == "group"
    sent = await bot.send_message(old.id, "before")
    assert sent.chat.type == "group"

    new = old.migrate()

    assert new.id != old.id and new.to_api()["type"] == "supergroup"
    assert new.status(alice.id) == "creator" and new.status(bob.id) == "member"
    assert new.bot_status == "administrator"
    told = [
        m
        for m in _updates_of(server, "message")
        if "migrate_to_chat_id" in m or "migrate_from_chat_id" in m
    ]
    assert [
        (m["chat"]["id"], m.get("migrate_to_chat_id"), m.get("migrate_from_chat_id")) for m in told
    ] == [(old.id, new.id, None), (new.id, None, old.id)]
    assert told[1]["chat"]["type"] == "supergroup" and told[1]["message_id"] == 1
    _conforms(server)
    # Every request about the old id is refused with the new id, as Telegram does.
    with pytest.raises(ChatMigrated) as refused:
        await bot.send_message(old.id, "after")
    assert refused.value.new_chat_id == new.id
    with pytest.raises(ChatMigrated):
        await bot.edit_message_text("edited", chat_id=old.id, message_id=sent.message_id)
    call = server.calls_to("sendMessage")[-1]
    assert call.status == 400
    assert call.response["description"] == (
        "Bad Request: group chat was upgraded to a supergroup chat"
    )
    assert call.response["parameters"] == {"migrate_to_chat_id": new.id}
    assert [m.text for m in old.messages(service=False)] == ["before"]
    with pytest.raises(ValueError, match="post there"):
        bob.send(old, "hello?")
    await bot.send_message(new.id, "after")
    assert [m.text for m in new.messages(service=False)] == ["after"]
    with pytest.raises(ValueError, match="not a basic group"):
        new.migrate()


async def test_the_bot_kicked_from_a_group_and_added_back(bot: Bot, server: FakeTelegram) -> None:
    alice = server.add_user("Alice", username="alice")
    basic = server.add_group("Basic", admins=[alice], basic=True)
    group = server.add_group("Super", admins=[alice], bot_admin=True)

    basic.remove_bot()
    group.remove_bot()
    with pytest.raises(Forbidden, match=r"^Forbidden: bot was kicked from the group chat$"):
        await bot.send_message(basic.id, "x")
    with pytest.raises(Forbidden, match=r"bot was kicked from the supergroup chat"):
        await bot.send_message(group.id, "x")
    alice.send(group, "/status")  # unseen while the bot is out
    group.add_bot(admin=True)
    await bot.send_message(group.id, "back")

    changes = _updates_of(server, "my_chat_member")
    statuses = [
        (c["chat"]["id"], c["old_chat_member"]["status"], c["new_chat_member"]["status"])
        for c in changes
    ]
    assert statuses == [
        (basic.id, "member", "kicked"),
        (group.id, "administrator", "kicked"),
        (group.id, "kicked", "administrator"),
    ]
    assert all(c["from"]["id"] == alice.id for c in changes)
    messages = _updates_of(server, "message")
    assert [m["new_chat_members"][0]["id"] for m in messages] == [server.bot.id]
    _conforms(server)
    parsed = [Update.de_json(u, bot) for u in server.updates]
    assert parsed[-2].my_chat_member is not None
    assert parsed[-2].my_chat_member.new_chat_member.status == "administrator"
    assert [m.text for m in group.messages(service=False)] == ["/status", "back"]


async def test_the_bot_promoted_and_demoted_is_told_its_rights(
    bot: Bot, server: FakeTelegram
) -> None:
    alice = server.add_user("Alice", username="alice")
    group = server.add_group("Club", admins=[alice])
    group.set_bot_status("administrator", can_pin_messages=False)
    group.set_bot_status("administrator")
    group.set_bot_status("member")
    with pytest.raises(ValueError, match="no such admin right: can_fly"):
        group.set_bot_status("administrator", can_fly=True)
    _conforms(server)
    changes = [Update.de_json(u, bot).my_chat_member for u in server.updates]
    olds = [c.old_chat_member for c in changes if c is not None]
    news = [c.new_chat_member for c in changes if c is not None]
    assert [m.status for m in news] == ["administrator", "administrator", "member"]
    assert olds[0].status == "member" and olds[2].status == "administrator"
    assert isinstance(news[0], ChatMemberAdministrator) and not news[0].can_pin_messages
    assert news[0].can_delete_messages
    assert isinstance(news[1], ChatMemberAdministrator) and news[1].can_pin_messages
    assert isinstance(olds[1], ChatMemberAdministrator) and not olds[1].can_pin_messages
    member = await bot.get_chat_member(group.id, server.bot.id)
    assert member.status == "member"


async def test_migrate_and_re_add_through_the_control_api() -> None:
    async with await FakeTelegramClient.launch() as client:
        alice = await client.add_user("Alice", username="alice")
        old = await client.add_group("Club", admins=[alice], basic=True)
        new = await old.migrate()
        assert new.id != old.id
        await new.remove_bot()
        await new.add_bot()
        kinds = [next(k for k in u if k != "update_id") for u in await client.updates()]
        assert kinds == ["message", "message", "my_chat_member", "my_chat_member", "message"]


async def test_pinning_takes_an_admin_with_the_right_to_pin(bot: Bot, server: FakeTelegram) -> None:
    alice = server.add_user("Alice", username="alice")
    plain = server.add_group("Plain", admins=[alice])
    sent = await bot.send_message(plain.id, "index")
    refused = "Not enough rights to manage pinned messages in the chat"
    with pytest.raises(BadRequest, match=refused):
        await bot.pin_chat_message(plain.id, sent.message_id, disable_notification=True)
    assert plain.pinned == [] and len(plain.messages()) == 1

    club = server.add_group("Club", admins=[alice], bot_admin=True, forum=True)
    topic = club.add_topic("Game")
    sent = await bot.send_message(club.id, "index", message_thread_id=topic.thread_id)
    assert await bot.pin_chat_message(club.id, sent.message_id, disable_notification=True)
    assert club.pinned == [sent.message_id]
    note = club.messages()[-1]
    assert note.is_from_bot and note.service["pinned_message"]["message_id"] == sent.message_id
    assert note.thread_id == topic.thread_id
    with pytest.raises(BadRequest, match=r"(?i)message to pin not found"):
        await bot.pin_chat_message(club.id, 999)
    member = await bot.get_chat_member(club.id, bot.id)
    assert isinstance(member, ChatMemberAdministrator) and member.can_pin_messages

    club.bot_rights["can_pin_messages"] = False
    with pytest.raises(BadRequest, match=refused):
        await bot.pin_chat_message(club.id, sent.message_id)
    member = await bot.get_chat_member(club.id, bot.id)
    assert isinstance(member, ChatMemberAdministrator) and not member.can_pin_messages
    _conforms(server)
