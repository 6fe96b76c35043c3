"""Refused input: each gets a clear answer in the asker's place and changes nothing."""

from __future__ import annotations

import asyncio
import secrets

from engine.cards import Category
from fakebot import FakeMessage, FakeUser
from tests.support.harness import Party, bot_messages
from tests.support.play import card_name, compose_suggestion, naming, open_and_start, state


async def _events(table: Party, game_id: int) -> int:
    return len(await table.bot.services.store.events(game_id))


def _typed(game, target: str, *cards: str) -> str:  # type: ignore[no-untyped-def]
    return f"/suggest @{target} " + "; ".join(card_name(c) for c in cards)


def _first_cards(game) -> tuple[str, str, str]:  # type: ignore[no-untyped-def]
    return (
        game.in_play(Category.SUSPECT)[0],
        game.in_play(Category.WEAPON)[0],
        game.in_play(Category.PLACE)[0],
    )


async def _refused(
    table: Party, game_id: int, who: FakeUser, text: str, expected: str
) -> FakeMessage:
    """Send a command in the group; the bot replies with `expected` and writes no event."""
    before = await _events(table, game_id)
    sent = await table.bot.say(who, table.group, text)
    reply = bot_messages(table.group)[-1]
    assert expected in reply.text, reply.text
    assert reply.reply_to is not None and reply.reply_to.message_id == sent.message_id
    assert await _events(table, game_id) == before
    return reply


async def test_fourth_suggestion_in_a_day_is_refused(table: Party) -> None:
    game_id = await open_and_start(table)
    game = await state(table, game_id)
    cards = _first_cards(game)
    for target in ("carol", "dave", "alice"):
        await table.bot.say(table.bob, table.group, _typed(game, target, *cards))
    await _refused(
        table, game_id, table.bob, _typed(game, "carol", *cards), "no suggestions left today"
    )


async def test_suggestion_to_oneself_is_refused(table: Party) -> None:
    game_id = await open_and_start(table)
    game = await state(table, game_id)
    await _refused(
        table, game_id, table.bob, _typed(game, "bob", *_first_cards(game)), "to yourself"
    )


async def test_target_over_its_limit_is_refused(table: Party) -> None:
    # The chat's admin sets a limit of 2 suggestions to one target per day for new games.
    await table.bot.say(table.alice, table.group, "/settings max_per_target_per_day 2")
    game_id = await open_and_start(table)
    game = await state(table, game_id)
    cards = _first_cards(game)
    for _ in range(2):
        await table.bot.say(table.bob, table.group, _typed(game, "carol", *cards))
    await _refused(
        table, game_id, table.bob, _typed(game, "carol", *cards), "suggestions to that player (2)"
    )


async def test_card_not_in_play_is_refused(table: Party) -> None:
    game_id = await open_and_start(table)
    game = await state(table, game_id)
    outside = next(c for c in game.pack.suspects if c not in game.deck)
    _, weapon, place = _first_cards(game)
    await _refused(
        table, game_id, table.bob, _typed(game, "carol", outside, weapon, place), "not in play"
    )


async def test_accusation_in_the_group_is_refused_and_not_echoed(table: Party) -> None:
    game_id = await open_and_start(table)
    game = await state(table, game_id)
    before = await _events(table, game_id)
    secret = "Miss Scarlett; Rope; Kitchen"
    sent = await table.bot.say(table.bob, table.group, f"/accuse {secret}")
    reply = bot_messages(table.group)[-1]
    assert "private chat" in reply.text and "Scarlett" not in reply.text
    assert all(secret not in m.text for m in bot_messages(table.group))
    assert sent.deleted, "the careless accusation is taken out of the thread"
    assert await _events(table, game_id) == before
    assert not game.accusations


async def test_second_accusation_is_refused_at_accuse(table: Party) -> None:
    from tests.support.play import compose_accusation

    game_id = await open_and_start(table)
    game = await state(table, game_id)
    await table.bot.say(table.bob, None, "/accuse")  # a composer opened before accusing
    early = table.bob.private_messages()[-1]
    await compose_accusation(table, table.bob, _first_cards(game))
    before = await _events(table, game_id)
    await table.bot.say(table.bob, None, "/accuse")
    refusal = table.bob.private_messages()[-1]
    assert "already made your accusation" in refusal.text and not refusal.buttons
    # The composer opened earlier still leads to the engine's refusal at the end.
    composer = early
    for card in _first_cards(game):
        await table.bot.press(table.bob, composer, card_name(card))
        composer = next(
            m for m in table.bob.private_messages() if m.message_id == composer.message_id
        )
    answer = await table.bob.press(composer, "Yes, I accuse")
    assert answer.answered and "already made your accusation" in (answer.text or "")
    assert await _events(table, game_id) == before


async def test_pressing_someone_elses_button_is_refused(table: Party) -> None:
    game_id = await open_and_start(table)
    # Bob presses Start on a lobby that Alice opened: only she or an admin may.
    await table.bot.say(table.alice, table.group, "/endgame")
    await table.bot.say(table.alice, table.group, "/newgame")
    lobby = bot_messages(table.group)[-1]
    await table.bot.press(table.bob, lobby, "Join")
    answer = await table.bot.press(table.bob, lobby, "Start the game")
    assert "Only @alice, who runs this lobby, or a chat admin" in answer.text
    assert len(await table.bot.services.store.events(game_id + 1)) == 3  # opened, 2 joined


async def test_forged_answer_press_is_refused(table: Party) -> None:
    game_id = await open_and_start(table)
    game = await state(table, game_id)
    carol = game.player_of(table.carol.id)
    assert carol is not None
    held = carol.hand[0]
    await compose_suggestion(table, table.bob, table.carol, naming(game, held))
    before = await _events(table, game_id)
    own = table.dave.private_messages()[-1]
    answer = await _forged_press(table, table.dave, own, f"a:{game_id}:1:{held}")
    assert answer.answered and "not addressed to you" in answer.text
    assert await _events(table, game_id) == before


async def test_stale_button_is_refused(table: Party) -> None:
    game_id = await open_and_start(table)
    game = await state(table, game_id)
    await table.bot.say(table.bob, None, "/suggest")
    old_composer = table.bob.private_messages()[-1]
    for target in (table.carol, table.dave, table.alice):
        await compose_suggestion(table, table.bob, target, _first_cards(game))
    before = await _events(table, game_id)
    await table.bot.press(table.bob, old_composer, "Carol")
    for card in _first_cards(game):
        old_composer = next(
            m for m in table.bob.private_messages() if m.message_id == old_composer.message_id
        )
        await table.bot.press(table.bob, old_composer, card_name(card))
    old_composer = next(
        m for m in table.bob.private_messages() if m.message_id == old_composer.message_id
    )
    answer = await table.bob.press(old_composer, "Send the suggestion")
    assert answer.answered and "no suggestions left today" in (answer.text or "")
    assert await _events(table, game_id) == before


async def test_admin_commands_from_non_admins_are_refused(table: Party) -> None:
    game_id = await open_and_start(table)
    for command in (
        "/pause",
        "/resume",
        "/extend 2h",
        "/endgame",
        "/remove @carol",
        "/replace @carol @bob",
        "/settings day_length 2h",
        "/language ru",
    ):
        await _refused(table, game_id, table.bob, command, "Only a chat admin")


async def _forged_press(table: Party, who: FakeUser, message: FakeMessage, data: str):  # type: ignore[no-untyped-def]
    """A callback with data the button never had (as a modified client could send)."""
    future = asyncio.get_running_loop().create_future()
    table.server.world.callback_query(str(secrets.randbelow(10**18)), who, message, data, future)
    result = await asyncio.wait_for(future, 5)
    await table.bot.settle()
    return result


async def test_editing_an_old_command_does_not_run_it_again(table: Party) -> None:
    game_id = await open_and_start(table)
    game = await state(table, game_id)
    sent = await table.bot.say(table.bob, table.group, _typed(game, "carol", *_first_cards(game)))
    before = await _events(table, game_id)
    table.bob.edit(sent, _typed(game, "dave", *_first_cards(game)))
    await table.bot.settle()
    assert await _events(table, game_id) == before


async def test_a_double_tap_on_send_makes_one_suggestion(table: Party) -> None:
    game_id = await open_and_start(table)
    game = await state(table, game_id)
    await table.bot.say(table.bob, None, "/suggest")
    composer = table.bob.private_messages()[-1]
    await table.bot.press(table.bob, composer, "Carol")
    for card in _first_cards(game):
        composer = next(
            m for m in table.bob.private_messages() if m.message_id == composer.message_id
        )
        await table.bot.press(table.bob, composer, card_name(card))
    composer = next(m for m in table.bob.private_messages() if m.message_id == composer.message_id)
    answers = await asyncio.gather(
        table.bob.press(composer, "Send the suggestion"),
        table.bob.press(composer, "Send the suggestion"),
    )
    await table.bot.settle()
    assert len((await state(table, game_id)).suggestions) == 1
    assert any("already been sent" in (a.text or "") for a in answers)
