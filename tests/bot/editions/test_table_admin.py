"""Admin commands in a classic game, through the fake Bot API: pause (timers stop, turn
presses refused), resume (timers go on from where they were), remove (the turn passes on,
the GM shows the removed player's cards), replace (the newcomer gets the hand, the seat,
its prompt), end (the envelope is shown)."""

from __future__ import annotations

from datetime import timedelta

from engine.state import Phase
from engine.table.state import Step
from fakebot import FakeUser
from tests.support.harness import Party, bot_messages, end_post
from tests.support.play import card_name
from tests.support.table_play import (
    TablePlayer,
    fix_seed,
    open_classic,
    prompt,
    prompt_by_id,
    prompt_turn,
)


def _count(table: Party, text: str) -> int:
    return sum(text in m.text for m in bot_messages(table.group))


async def _until_a_refuter_is_asked(player: TablePlayer) -> None:
    player.auto_refute = False
    for _ in range(30):
        game = await player.game()
        if game.table is not None and game.table.pending is not None:
            return
        await player.turn()
    raise AssertionError("no refuter was asked")


def _mention(person: FakeUser) -> str:
    return f"@{person.username}"


async def test_pause_stops_the_timers_and_presses_and_resume_goes_on(table: Party) -> None:
    fix_seed(table, 12)
    people = [table.alice, table.bob, table.carol]
    game_id = await open_classic(table, people)
    player = TablePlayer(table, game_id, people)
    who = await player.current()
    game = await player.game()
    assert game.table is not None and game.table.due is not None
    turn_time, due = game.settings.turn_time, game.table.due
    await table.bot.advance(timedelta(minutes=1))
    before = prompt(table)

    await table.bot.say(table.alice, table.group, "/pause")
    assert _count(table, "The game is paused") == 1
    answer = await table.bot.press(who, before, "🎲 Roll")
    assert answer.text == "The game is paused: wait until an admin resumes it."
    game = await player.game()
    assert game.table is not None and game.table.step is Step.ROLL
    assert not any("rolls" in m.text for m in bot_messages(table.group))
    await table.bot.advance(turn_time * 10)
    assert _count(table, "Time is up") == 0

    await table.bot.say(table.alice, table.group, "/resume")
    assert _count(table, "The game goes on after a pause of") == 1
    game = await player.game()
    assert game.table is not None and game.table.due == due + turn_time * 10
    assert game.players[game.table.current].user == who.id
    await table.bot.press(who, prompt(table), "🎲 Roll")
    game = await player.game()
    assert game.table is not None and game.table.step is Step.MOVE
    left = game.table.due - table.bot.clock.now()  # type: ignore[operator]
    assert left == turn_time - timedelta(minutes=1)  # the timer goes on where it stopped
    await table.bot.advance(left - timedelta(seconds=1))
    assert _count(table, "Time is up") == 0
    await table.bot.advance(timedelta(seconds=2))
    assert _count(table, "Time is up") == 1


async def test_remove_passes_the_turn_on_and_the_gm_shows_for_the_removed(table: Party) -> None:
    fix_seed(table, 12)
    people = [table.alice, table.bob, table.carol, table.dave]
    game_id = await open_classic(table, people)
    player = TablePlayer(table, game_id, people)

    # The current player is removed: the next one plays, the old prompt is refused.
    gone = await player.current()
    old_prompt = prompt(table)
    await table.bot.say(table.alice, table.group, f"/remove {_mention(gone)}")
    assert _count(table, f"{_mention(gone)} was removed from the game") == 1
    game = await player.game()
    assert game.table is not None and game.table.turn == 2
    removed = game.player_of(gone.id)
    assert removed is not None and not removed.active
    assert len(removed.hand) > 0  # the removed player keeps the cards (the GM shows them)
    nxt = await player.current()
    assert nxt is not gone and f"Turn 2: {_mention(nxt)}" in prompt(table).text
    closed = prompt_by_id(table, old_prompt)  # the removed player's prompt: closed
    assert not closed.buttons and "Turn 1 is over" in closed.text

    # A refuter who is removed while choosing: the GM shows their first match at once.
    await _until_a_refuter_is_asked(player)
    game = await player.game()
    assert game.table is not None and game.table.pending is not None
    pending = game.table.pending
    assert pending.refuter is not None
    refuter = player.people[game.players[pending.refuter].user]
    suggester = player.people[game.players[pending.suggester].user]
    by_gm = _count(table, "The GM has shown")  # the first removed player's cards, so far
    await table.bot.say(table.alice, table.group, f"/remove {_mention(refuter)}")
    game = await player.game()
    assert game.table is not None and game.table.step is Step.SUGGESTED
    shown = game.table.suggestions[-1]
    assert shown.by_gm and shown.refuter == pending.refuter and shown.card is not None
    assert _count(table, "The GM has shown") == by_gm + 1
    mine = [m.text for m in suggester.private_messages()]
    assert any(f"The GM shows you {card_name(shown.card)}" in t for t in mine)
    told = [line for m in bot_messages(table.group) for line in m.text.split("\n")]
    assert not any(card_name(shown.card) in line for line in told if "has shown" in line)
    await table.bot.press(suggester, prompt(table), "⏹ End turn")
    game = await player.game()
    assert game.running and game.table is not None
    assert game.players[game.table.current].active


async def test_replace_hands_the_seat_and_its_refuter_prompt_to_the_newcomer(table: Party) -> None:
    fix_seed(table, 12)
    people = [table.alice, table.bob, table.carol]
    game_id = await open_classic(table, people)
    player = TablePlayer(table, game_id, people)
    table.dave.start_bot()
    await table.bot.say(table.dave, table.group, "hello")
    await _until_a_refuter_is_asked(player)
    game = await player.game()
    assert game.table is not None and game.table.pending is not None
    seat = game.table.pending.refuter
    assert seat is not None
    old = player.people[game.players[seat].user]
    hand, role = game.players[seat].hand, game.players[seat].role

    await table.bot.say(table.alice, table.group, f"/replace {_mention(old)} @dave")
    assert _count(table, f"@dave takes over the seat of {_mention(old)}") == 1
    game = await player.game()
    assert game.players[seat].user == table.dave.id and game.players[seat].role == role
    dms = [m.text for m in table.dave.private_messages()]
    cards = next(t for t in dms if "Your cards" in t)
    assert all(card_name(c) in cards for c in hand) and card_name(role) in cards
    assert any("What your seat has been shown" in t or "not been shown" in t for t in dms)
    assert any("has taken over your seat" in m.text for m in old.private_messages())

    ask = [m for m in table.dave.private_messages() if m.buttons][-1]
    assert {b for row in ask.buttons for b, _ in row} <= {card_name(c) for c in hand}
    old_ask = [m for m in old.private_messages() if m.buttons]
    assert not old_ask or old_ask[-1].buttons == []
    await table.bot.press(table.dave, ask, ask.buttons[0][0][0])
    game = await player.game()
    assert game.table is not None and game.table.step is Step.SUGGESTED
    assert not game.table.suggestions[-1].by_gm
    suggester = player.people[game.players[game.table.current].user]
    await table.bot.press(suggester, prompt(table), "⏹ End turn")
    player.people[table.dave.id] = table.dave
    player.auto_refute = True
    for _ in range(3):  # the newcomer plays the seat's turns; the old player may not
        game = await player.game()
        assert game.table is not None
        if game.table.current == seat:
            break
        await player.turn()
    assert game.table is not None and game.table.current == seat
    assert all(prompt_turn(m) is None for m in old.private_messages())  # no buttons of the seat
    await table.bot.press(table.dave, prompt(table), "🎲 Roll")
    game = await player.game()
    assert game.table is not None and game.table.step is Step.MOVE


async def test_end_shows_the_envelope_and_stops_the_game(table: Party) -> None:
    fix_seed(table, 12)
    people = [table.alice, table.bob, table.carol]
    game_id = await open_classic(table, people)
    player = TablePlayer(table, game_id, people)
    await player.current()
    last = prompt(table)
    await table.bot.say(table.alice, table.group, "/endgame")
    game = await player.game()
    assert game.phase is Phase.ENDED and game.envelope is not None
    final = end_post(table.group)
    assert "ended by an admin" in final.text
    assert all(card_name(c) in final.text for c in game.envelope)
    closed = prompt_by_id(table, last)  # the prompt of the turn under way: closed
    assert not closed.buttons and "Turn 1 is over" in closed.text
    await table.bot.advance(game.settings.turn_time * 2)
    assert _count(table, "Time is up") == 0
