"""A classic game of two people and two computer detectives, played to the end through the
fake Bot API: the host seats the detectives from the lobby post, they move under the game's
own clock, and nobody learns a card they should not."""

from __future__ import annotations

import pytest

from engine.computer import detective_level
from engine.settings import Settings
from engine.state import Phase
from engine.table.state import Step
from tests.support.harness import Party, bot_messages
from tests.support.play import lobby_post
from tests.support.table_play import TablePlayer, fix_seed, prompt

SEED = 5
DELAY = Settings().detective_delay


@pytest.mark.slow
async def test_two_people_and_two_detectives_play_a_classic_game_to_the_end(table: Party) -> None:
    fix_seed(table, SEED)
    alice, bob, carol = table.alice, table.bob, table.carol
    people = [alice, bob]
    for person in people:
        person.start_bot()
    await table.bot.settle()
    await table.bot.say(alice, table.group, "/newgame classic")
    await table.bot.press(bob, lobby_post(table), "Join")
    await table.bot.say(alice, table.group, "/settings images off")  # the board in words

    # Someone who is not the host may not seat a detective; the host may, two of them.
    refused = await table.bot.press(carol, lobby_post(table), "🤖 + Inspector")
    assert refused.text == "Only @alice, who runs this lobby, or a chat admin can do that."
    assert refused.show_alert
    assert "🤖" not in lobby_post(table).text
    await table.bot.press(alice, lobby_post(table), "🤖 + Inspector")
    await table.bot.press(alice, lobby_post(table), "🤖 + Inspector")
    roster = lobby_post(table).text
    assert "🤖 Inspector 1" in roster and "🤖 Inspector 2" in roster
    await table.bot.press(alice, lobby_post(table), "Start the game")

    ref = await table.bot.services.store.game_for_chat(table.group.id, 0)
    assert ref is not None
    runner = TablePlayer(table, ref.id, people)
    game = await runner.game()
    assert game.phase is Phase.RUNNING and len(game.players) == 4
    computers = [p for p in game.players if detective_level(p.user) is not None]
    assert len(computers) == 2

    detective_moves = 0
    for _ in range(400):
        game = await runner.game()
        table_state = game.table
        if not game.running or table_state is None:
            break
        pending = table_state.pending
        waiting_on = (
            pending.refuter
            if table_state.step is Step.REFUTING and pending
            else table_state.current
        )
        assert waiting_on is not None
        if detective_level(game.players[waiting_on].user) is not None:
            before = len(await table.bot.services.store.events(ref.id))
            await table.bot.advance(DELAY)
            after = len(await table.bot.services.store.events(ref.id))
            assert after > before, "a detective's move came after the human-like pause"
            detective_moves += 1
            continue
        if table_state.step is Step.REFUTING:
            await runner.refute()
        elif table_state.step in (Step.MOVED, Step.SUGGESTED):  # back after a detective
            who = runner.people[game.players[table_state.current].user]
            if table_state.step is Step.MOVED:
                await runner.suggest_if_offered(who)
            game = await runner.game()
            if game.table is not None and game.table.step is not Step.REFUTING and game.running:
                await runner.press(who, prompt(table), runner.label("button.end_turn"))
        else:
            await runner.turn()
    game = await runner.game()
    assert game.phase is Phase.ENDED, "the game was played to its end"
    assert detective_moves > 10

    # The end post names the outcome; the detectives are named as computers in the thread.
    group_text = "\n".join(m.text for m in bot_messages(table.group))
    assert "🤖 Inspector 1" in group_text
    # No message was addressed to a detective (they have no chat), none was refused.
    chats = {c.params.get("chat_id") for c in table.server.calls}
    assert not chats & {p.user for p in computers}
    assert all(c.status == 200 for c in table.server.calls if c.method == "sendMessage")
    # Each person got their own hand and was shown cards only in private.
    for person in people:
        assert any("Your cards" in m.text for m in person.private_messages())
    assert game.envelope is not None

    # /stats counts the game apart: not among the people's games, but on its own line.
    await table.bot.say(carol, table.group, "/stats")
    # (the story of the game is worked out in the background and may come after it)
    records = next(m.text for m in bot_messages(table.group) if "records of this chat" in m.text)
    assert game.winner is not None
    by_computer = detective_level(game.players[game.winner].user) is not None
    won_by_people, won_by_computers = (0, 1) if by_computer else (1, 0)
    assert (
        "🤖 1 game with computer detectives, counted apart: "
        f"people won {won_by_people}, computer detectives {won_by_computers}."
    ) in records
    assert "game played" not in records
