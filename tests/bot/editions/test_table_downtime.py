"""Classic timers forgiven for the bot's downtime: a turn or refuter timer that ran out while
no bot was running gives a fresh timer on restart (no skipped turn, no GM card), the group
is told the bot was offline, and nothing fires twice."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from engine.table.state import Step
from tests.bot.editions.downtime import count, restart_later
from tests.support.harness import Party
from tests.support.table_play import TablePlayer, button, card, fix_seed, open_classic, prompt


async def test_a_turn_that_ran_out_while_the_bot_was_down_goes_on_with_a_fresh_timer(
    table: Party, tmp_path: Path
) -> None:
    fix_seed(table, 12)
    people = [table.alice, table.bob, table.carol]
    game_id = await open_classic(table, people)
    player = TablePlayer(table, game_id, people)
    who = await player.current()
    await table.bot.press(who, prompt(table), "🎲 Roll")
    game = await player.game()
    assert game.table is not None and game.table.step is Step.MOVE
    turn, turn_time = game.table.turn, game.settings.turn_time
    rolls = count(table, "rolls")

    again = await restart_later(table, tmp_path, turn_time + timedelta(minutes=10))
    try:
        now = again.clock.now()
        game = await player.game()
        assert game.table is not None
        assert game.table.turn == turn and game.table.step is Step.MOVE
        assert game.players[game.table.current].user == who.id
        assert game.table.due == now + turn_time  # a fresh timer, from the restart
        assert count(table, "I was offline when a deadline passed") == 1
        assert count(table, "the turn goes on with a fresh timer") == 1
        assert count(table, "Time is up") == 0
        assert not any("Your turn timed out" in m.text for m in who.private_messages())

        await again.advance(timedelta(minutes=1))  # nothing fires twice
        assert count(table, "I was offline when a deadline passed") == 1
        assert count(table, "fresh timer") == 1
        assert count(table, "Time is up") == 0

        message = prompt(table)  # the turn's prompt from before the restart still works
        choice = button(message, "🚪") or button(message, "➡️")
        assert choice is not None
        await again.press(who, message, choice)
        game = await player.game()
        assert game.table is not None and game.table.turn == turn
        assert game.table.step is not Step.MOVE
        assert count(table, "rolls") == rolls + 1  # told once, with the move, on the card
        assert card(table).text.count("rolls") == 1

        await again.advance(turn_time)  # with the bot up, the timer runs out as usual
        assert count(table, "Time is up") == (0 if game.table.step is Step.REFUTING else 1)
    finally:
        await again.stop()


async def test_a_refuter_whose_time_ran_out_while_the_bot_was_down_still_chooses(
    table: Party, tmp_path: Path
) -> None:
    fix_seed(table, 12)
    people = [table.alice, table.bob, table.carol]
    game_id = await open_classic(table, people)
    player = TablePlayer(table, game_id, people)
    player.auto_refute = False
    game = await player.until_a_refuter_is_asked(30)
    assert game.table is not None
    pending = game.table.pending
    assert pending is not None and pending.refuter is not None
    refuter = player.people[game.players[pending.refuter].user]
    suggester = player.people[game.players[pending.suggester].user]
    refute_time = game.settings.refute_time

    again = await restart_later(table, tmp_path, refute_time + timedelta(minutes=10))
    try:
        now = again.clock.now()
        game = await player.game()
        assert game.table is not None
        still = game.table.pending
        assert still is not None and still.refuter == pending.refuter and still.card is None
        assert still.due == now + refute_time
        assert count(table, "I was offline when a deadline passed") == 1
        assert count(table, "may still choose") == 1
        assert count(table, "The GM has shown") == 0

        await again.advance(timedelta(seconds=30))
        assert (
            count(table, "I was offline when a deadline passed") == 1
            and count(table, "may still choose") == 1
        )

        ask = [m for m in refuter.private_messages() if m.buttons][-1]
        card = ask.buttons[0][0][0]
        await again.press(refuter, ask, card)
        assert any(f"shows you {card}" in m.text for m in suggester.private_messages())
        assert count(table, "has shown") == 1 and count(table, "The GM has shown") == 0
    finally:
        await again.stop()
