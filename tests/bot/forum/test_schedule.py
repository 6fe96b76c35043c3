"""Deadlines on a controlled clock: fixed local day ends across DST, reminders, downtime,
the accusation window and the days around it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from engine.cards import Category
from tests.support.harness import Party, bot_messages
from tests.support.play import card_name, compose_accusation, naming, open_and_start, state


async def test_days_end_at_noon_berlin_time_across_the_spring_change(table: Party) -> None:
    table.bot.clock.moment = datetime(2027, 3, 27, 9, 0, tzinfo=UTC)  # Saturday, CET
    await table.bot.say(table.alice, table.group, "/settings day_ends_at 12:00")
    await table.bot.say(table.alice, table.group, "/settings timezone Europe/Berlin")
    game_id = await open_and_start(table)
    game = await state(table, game_id)
    assert game.day_ends_at == datetime(2027, 3, 28, 10, 0, tzinfo=UTC)  # 12:00 CEST
    opened = next(m for m in bot_messages(table.group) if "Day 1 begins" in m.text)
    assert "Mar 28, 12:00 (Berlin, UTC+2)" in opened.text
    await table.bot.advance(game.day_ends_at - table.bot.clock.now() - timedelta(seconds=1))
    assert (await state(table, game_id)).day == 1
    await table.bot.advance(timedelta(seconds=2))
    game = await state(table, game_id)
    assert game.day == 2 and game.day_ends_at == datetime(2027, 3, 29, 10, 0, tzinfo=UTC)
    assert "Mar 29, 12:00 (Berlin, UTC+2)" in bot_messages(table.group)[-1].text


async def test_reminders_three_hours_before_the_end_unless_turned_off(table: Party) -> None:
    game_id = await open_and_start(table)
    await table.bot.say(table.dave, None, "/reminders off")
    game = await state(table, game_id)
    assert game.day_ends_at is not None
    await table.bot.advance(
        game.day_ends_at - timedelta(hours=3, seconds=1) - table.bot.clock.now()
    )
    assert not any("The day ends" in m.text for m in table.bob.private_messages())
    await table.bot.advance(timedelta(seconds=2))
    for person in (table.alice, table.bob, table.carol):
        (reminder,) = [m for m in person.private_messages() if "The day ends" in m.text]
        assert "3 suggestions left today" in reminder.text
    assert not any("The day ends" in m.text for m in table.dave.private_messages())


async def test_an_answer_due_while_the_bot_was_down_carries_no_penalty(table: Party) -> None:
    game_id = await open_and_start(table)
    game = await state(table, game_id)
    dave = game.player_of(table.dave.id)
    assert dave is not None and game.day_ends_at is not None
    typed = "; ".join(card_name(c) for c in naming(game, dave.hand[0]))
    await table.bot.say(table.bob, table.group, f"/suggest @dave {typed}")
    # The bot is down from now until an hour after the day's end.
    table.bot.clock.moment = game.day_ends_at + timedelta(hours=1)
    await table.bot.scheduler.sweep()
    await table.bot.settle()
    game = await state(table, game_id)
    assert game.day == 2
    assert game.quota_left(game.players[dave.seat]) == 3, "no penalty for the bot's absence"
    assert game.suggestions[0].by_gm
    assert sum("I was offline" in m.text for m in bot_messages(table.group)) == 1


async def test_window_keeps_the_next_day_closed_then_opens_it_at_once(table: Party) -> None:
    game_id = await open_and_start(table)
    game = await state(table, game_id)
    assert game.day_ends_at is not None and game.envelope is not None
    # A wrong accusation an hour into day 1: the 24-hour window outlasts the day by an hour,
    # less than half a day, so no day opens at the day's end; it opens when the window closes.
    await table.bot.advance(timedelta(hours=1))
    wrong = (
        game.envelope[0],
        game.envelope[1],
        next(c for c in game.in_play(Category.PLACE) if c != game.envelope[2]),
    )
    await compose_accusation(table, table.dave, wrong)
    game = await state(table, game_id)
    assert game.window is not None
    closes = game.window.closes_at
    assert game.day_ends_at is not None
    await table.bot.advance(game.day_ends_at - table.bot.clock.now() + timedelta(seconds=1))
    game = await state(table, game_id)
    assert not game.day_open, "1 h of window left is less than half a day: no new day"
    assert "only accusations until then" in bot_messages(table.group)[-1].text
    await table.bot.advance(closes - table.bot.clock.now() + timedelta(seconds=1))
    game = await state(table, game_id)
    assert game.day_open and game.day == 2
    texts = [m.text for m in bot_messages(table.group)[-3:]]
    assert any("window is closed and nobody was right" in t for t in texts)
    assert "Day 2 begins" in texts[-1]
