"""Who may start a lobby: its creator while in it; after the creator leaves, whoever has
waited longest (the lobby's host); a chat admin always."""

from __future__ import annotations

from engine.state import Phase
from tests.support.harness import Party, bot_messages
from tests.support.play import lobby_post, state


async def test_a_creator_who_left_cannot_start_and_the_next_host_can(table: Party) -> None:
    for person in table.players:
        person.start_bot()
    await table.bot.say(table.bob, table.group, "/newgame")  # bob is no admin
    for person in (table.carol, table.dave, table.alice):
        await table.bot.press(person, lobby_post(table), "Join")
    assert "@bob or an admin starts the game" in lobby_post(table).text
    await table.bot.press(table.bob, lobby_post(table), "Leave")
    assert "@carol or an admin starts the game" in lobby_post(table).text
    ref = await table.bot.services.store.game_for_chat(table.group.id, 0)
    assert ref is not None
    events = len(await table.bot.services.store.events(ref.id))

    pressed = await table.bot.press(table.bob, lobby_post(table), "Start the game")
    assert pressed.answered and "Only @carol, who runs this lobby, or a chat admin" in (
        pressed.text or ""
    )
    typed = await table.bot.say(table.bob, table.group, "/startgame")
    reply = bot_messages(table.group)[-1]
    assert reply.reply_to is not None and reply.reply_to.message_id == typed.message_id
    assert "Only @carol, who runs this lobby, or a chat admin" in reply.text
    pressed = await table.bot.press(table.dave, lobby_post(table), "Start the game")
    assert "Only @carol" in (pressed.text or "")
    assert len(await table.bot.services.store.events(ref.id)) == events
    assert (await state(table, ref.id)).phase is Phase.LOBBY

    pressed = await table.bot.press(table.carol, lobby_post(table), "Start the game")
    assert pressed.answered and "starting" in (pressed.text or "")
    game = await state(table, ref.id)
    assert game.phase is Phase.RUNNING
    assert [p.user for p in game.players] == [table.carol.id, table.dave.id, table.alice.id]


async def test_an_admin_may_start_a_lobby_its_creator_left(table: Party) -> None:
    for person in table.players:
        person.start_bot()
    await table.bot.say(table.bob, table.group, "/newgame")
    for person in (table.carol, table.dave):
        await table.bot.press(person, lobby_post(table), "Join")
    await table.bot.press(table.bob, lobby_post(table), "Leave")
    await table.bot.press(table.alice, lobby_post(table), "Join")
    await table.bot.say(table.alice, table.group, "/startgame")  # alice is the chat's admin
    ref = await table.bot.services.store.game_for_chat(table.group.id, 0)
    assert ref is not None and (await state(table, ref.id)).phase is Phase.RUNNING
