"""A Liars Edition timer forgiven for the bot's downtime, as the classic ones are: the Liar!
window that closed while no bot was running stays open with a fresh timer on restart, the
group is told once, and the Liar! button still works."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from engine.liars.state import Stage, liars_of, liars_part
from tests.bot.editions.downtime import count, restart_later
from tests.support.harness import Party
from tests.support.liars_play import LiarsPlayer
from tests.support.table_play import fix_seed, open_classic, prompt


async def test_a_liar_window_that_closed_while_the_bot_was_down_stays_open(
    table: Party, tmp_path: Path
) -> None:
    fix_seed(table, 21)
    people = [table.alice, table.bob, table.carol]
    game_id = await open_classic(table, people, words="/newgame liars")
    player = LiarsPlayer(table, game_id, people)
    game = await player.game()
    assert game.table is not None
    reader = player.user(game.table.current, game)
    await player.press(reader, prompt(table), player.label("button.roll"))  # roll, then stay
    await player.press(reader, prompt(table), player.label("button.stay_here"))
    await player.suggest(reader)
    message = prompt(table)
    read = next(b for row in message.buttons for b, _ in row if b.startswith("📜"))
    await player.press(reader, message, read)
    game = await player.game()
    assert game.table is not None and liars_of(game.table) is not None
    play = liars_part(game.table).play
    assert play is not None and play.stage is Stage.WINDOW
    window = game.settings.liar_window

    again = await restart_later(table, tmp_path, window + timedelta(minutes=10))
    try:
        now = again.clock.now()
        game = await player.game()
        assert game.table is not None and liars_of(game.table) is not None
        still = liars_part(game.table).play
        assert still is not None and still.stage is Stage.WINDOW and still.due == now + window
        assert count(table, "I was offline when a deadline passed") == 1
        assert count(table, "Liar! window") == 1 and count(table, "stays open") == 1
        assert count(table, "Nobody called Liar!") == 0

        await again.advance(timedelta(seconds=5))  # nothing fires twice
        assert count(table, "I was offline when a deadline passed") == 1
        assert count(table, "stays open") == 1

        caller = next(p for p in people if p.id != reader.id)
        await again.press(caller, player.liar_post(), player.label("button.liar"))
        assert count(table, f"@{caller.username} calls Liar!") == 1
    finally:
        await again.stop()
