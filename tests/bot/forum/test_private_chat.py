"""People who never started the bot, and the private chat's own commands."""

from __future__ import annotations

from tests.support.harness import Party, bot_messages
from tests.support.play import all_card_names, open_and_start, state


async def test_a_player_who_never_started_the_bot_gets_the_hand_after_starting(
    table: Party,
) -> None:
    game_id = await open_and_start(table, started=[table.alice, table.bob, table.carol])
    game = await state(table, game_id)
    dave = game.player_of(table.dave.id)
    assert dave is not None
    assert table.dave.private_messages() == []
    notices = [m for m in bot_messages(table.group) if "cannot write to you privately" in m.text]
    assert len(notices) == 1 and "@dave" in notices[0].text
    (button,) = [b for row in notices[0].buttons for b in row]
    assert button[1] == f"https://t.me/whodunit_bot?start=g{game_id}"

    table.dave.start_bot(f"g{game_id}")
    await table.bot.settle()
    hand = next(m for m in table.dave.private_messages() if "Your cards" in m.text)
    names = all_card_names(game)
    shown = {card for name, card in names.items() if name in hand.text.split("Your character")[0]}
    assert shown == set(dave.hand)
    # Told once, however many messages were owed.
    notices = [m for m in bot_messages(table.group) if "cannot write to you privately" in m.text]
    assert len(notices) == 1


async def test_joining_without_a_private_chat_opens_it_by_deep_link(table: Party) -> None:
    table.alice.start_bot()
    await table.bot.settle()
    await table.bot.say(table.alice, table.group, "/newgame")
    lobby = bot_messages(table.group)[-1]
    answer = await table.bot.press(table.bob, lobby, "Join")
    assert answer.url is not None and answer.url.startswith("https://t.me/whodunit_bot?start=g")
    lobby = next(m for m in bot_messages(table.group) if m.message_id == lobby.message_id)
    assert "@bob" in lobby.text


async def test_hand_and_games_in_private(table: Party) -> None:
    game_id = await open_and_start(table)
    game = await state(table, game_id)
    bob = game.player_of(table.bob.id)
    assert bob is not None
    await table.bot.say(table.bob, None, "/hand")
    reply = table.bob.private_messages()[-1]
    names = all_card_names(game)
    assert {
        card for name, card in names.items() if name in reply.text.split("Your character")[0]
    } == set(bob.hand)
    assert "Suggestions left today: 3" in reply.text
    await table.bot.say(table.bob, None, "/games")
    assert "Cluedo club: day 1" in table.bob.private_messages()[-1].text


async def test_roles_chosen_at_join(table: Party) -> None:
    from tests.support.play import lobby_post

    for person in table.players:
        person.start_bot()
    await table.bot.say(table.alice, table.group, "/settings role_assignment chosen")
    await table.bot.say(table.alice, table.group, "/newgame plum")
    await table.bot.say(table.bob, table.group, "/join mustard")
    await table.bot.say(table.carol, table.group, "/join Mustard")
    assert "already taken" in bot_messages(table.group)[-1].text
    await table.bot.say(table.carol, table.group, "/join")
    await table.bot.say(table.dave, table.group, "/join")
    await table.bot.press(table.alice, lobby_post(table), "Start the game")
    ref = await table.bot.services.store.game_for_chat(table.group.id, 0)
    assert ref is not None
    game = await state(table, ref.id)
    roles = {p.user: p.role for p in game.players}
    assert roles[table.alice.id] == "plum" and roles[table.bob.id] == "mustard"
    assert len(set(roles.values())) == 4


async def test_leaving_a_running_game_and_the_accuse_deep_link(table: Party) -> None:
    game_id = await open_and_start(table)
    await table.bot.say(table.dave, table.group, "/leave")
    game = await state(table, game_id)
    assert not game.player_of(table.dave.id).active  # type: ignore[union-attr]
    assert "@dave has left the game" in bot_messages(table.group)[-1].text
    await table.bot.say(table.bob, table.group, "/accuse")
    (button,) = [b for row in bot_messages(table.group)[-1].buttons for b in row]
    assert button[1] is not None and button[1].endswith("?start=accuse")
    table.bob.start_bot("accuse")
    await table.bot.settle()
    assert "An accusation" in table.bob.private_messages()[-1].text


async def test_games_list_is_private(table: Party) -> None:
    await open_and_start(table)
    await table.bot.say(table.bob, table.group, "/games")
    reply = bot_messages(table.group)[-1]
    assert "private chat" in reply.text and "Game" not in reply.text


async def test_hand_repeats_the_answer_prompts_still_owed(table: Party) -> None:
    from tests.support.play import card_name, naming

    game_id = await open_and_start(table)
    game = await state(table, game_id)
    carol = game.player_of(table.carol.id)
    assert carol is not None
    held = carol.hand[0]
    named = "; ".join(card_name(c) for c in naming(game, held))
    await table.bot.say(table.bob, table.group, f"/suggest @carol {named}")
    await table.bot.say(table.carol, None, "/hand")
    again = table.carol.private_messages()[-1]
    assert "Suggestion 1" in again.text and again.buttons
    await table.bot.press(table.carol, again, card_name(held))
    assert any("shows you" in m.text for m in table.bob.private_messages())
