"""Classic games through the fake Bot API: the turn and refuter timers, a restart in the
middle of a turn, and a game where every accusation is wrong."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from engine.cards import Category
from engine.state import Phase
from engine.table.setup import table_cards
from engine.table.state import Step
from tests.support.harness import BotHarness, Clock, Party, bot_messages, database_url, end_post
from tests.support.play import card_name
from tests.support.table_play import TablePlayer, button, card, fix_seed, open_classic, prompt


def _count(table: Party, text: str) -> int:
    return sum(text in m.text for m in bot_messages(table.group))


async def test_timers_and_a_restart_in_the_middle_of_a_turn(table: Party, tmp_path: Path) -> None:
    fix_seed(table, 12)
    people = [table.alice, table.bob, table.carol]
    game_id = await open_classic(table, people)
    player = TablePlayer(table, game_id, people)
    player.auto_refute = False

    # The first player does nothing: their turn times out, once, with a notice.
    game = await player.game()
    assert game.table is not None and game.table.turn == 1
    await table.bot.advance(game.settings.turn_time + timedelta(seconds=1))
    assert _count(table, "Time is up") == 1
    game = await player.game()
    assert game.table is not None and game.table.turn == 2
    await table.bot.advance(timedelta(minutes=1))
    assert _count(table, "Time is up") == 1

    # A suggestion whose refuter stays silent: the GM shows the first match for them.
    game = await player.until_a_refuter_is_asked(20)
    assert game.table is not None
    pending = game.table.pending
    assert pending is not None and pending.refuter is not None
    suggester = player.people[game.players[pending.suggester].user]
    refuter = player.people[game.players[pending.refuter].user]
    await table.bot.advance(game.settings.refute_time + timedelta(seconds=1))
    assert _count(table, "The GM has shown") == 1
    assert sum("The GM shows you" in m.text for m in suggester.private_messages()) == 1
    assert any("You did not choose in time" in m.text for m in refuter.private_messages())
    await table.bot.advance(timedelta(seconds=30))
    assert _count(table, "The GM has shown") == 1
    await table.bot.press(suggester, prompt(table), "⏹ End turn")

    # The next player rolls; the bot restarts; the turn goes on where it was.
    who = await player.current()
    await table.bot.press(who, prompt(table), "🎲 Roll")
    game = await player.game()
    assert game.table is not None and game.table.step is Step.MOVE
    turn, rolls = game.table.turn, _count(table, "rolls")
    await table.bot.stop()
    again = BotHarness(table.server, database_url(tmp_path), Clock(table.bot.clock.now()))
    await again.start()
    table.bot = again
    try:
        await again.settle()
        game = await player.game()
        assert game.table is not None and game.table.turn == turn
        assert game.table.step is Step.MOVE
        message = prompt(table)
        choice = button(message, "🚪") or button(message, "➡️")
        assert choice is not None
        await again.press(who, message, choice)
        game = await player.game()
        assert game.table is not None and game.table.turn == turn
        assert game.table.step is not Step.MOVE
        # nothing sent twice: the card tells the roll once, with the move
        assert _count(table, "rolls") == rolls + 1 and card(table).text.count("rolls") == 1
        timeouts = _count(table, "Time is up")
        await again.advance(game.settings.turn_time + timedelta(seconds=1))
        assert _count(table, "Time is up") == timeouts + (
            0 if game.table.step is Step.REFUTING else 1
        )
        game = await player.game()
        assert game.table is not None and game.table.turn in (turn, turn + 1)
    finally:
        await again.stop()


async def test_every_accusation_wrong_ends_with_no_winner(table: Party) -> None:
    fix_seed(table, 5)
    people = [table.alice, table.bob, table.carol]
    game_id = await open_classic(table, people)
    player = TablePlayer(table, game_id, people)
    game = await player.game()
    envelope = game.envelope
    assert envelope is not None
    wrong_room = next(c for c in table_cards(Category.PLACE) if c != envelope[2])
    for _ in people:
        who = await player.current()
        await player.accuse(who, (envelope[0], envelope[1], wrong_room))
    game = await player.game()
    assert game.phase is Phase.ENDED and game.winner is None
    assert _count(table, "it is wrong") == 3
    final = end_post(table.group)
    assert "nobody found the solution" in final.text
    assert all(card_name(c) in final.text for c in envelope)
    before_end = bot_messages(table.group)[:-1]
    assert not any(card_name(wrong_room) in m.text for m in before_end if "accusation" in m.text)
