"""/status in a classic game: whose turn and its step, the board in words (each token's
room or square, each weapon's room), who is out, away or gone; in English and Russian.
Nothing secret: no hand, no shown card."""

from __future__ import annotations

from bot.render.board_text import square_label
from engine.state import Game
from fakebot import FakeMessage
from tests.support.harness import Party, bot_messages
from tests.support.play import card_name
from tests.support.table_play import TablePlayer, button, fix_seed, open_classic, prompt


async def _status(table: Party, who_says: str = "/status") -> FakeMessage:
    await table.bot.say(table.dave, table.group, who_says)
    return bot_messages(table.group)[-1]


def _board_named(text: str, game: Game, lang: str = "en") -> None:
    """Every token's room or square and every weapon's room is in the text."""
    assert game.table is not None
    for suspect, place in game.table.tokens:
        where = card_name(place, lang) if isinstance(place, str) else square_label(place)
        assert f"{card_name(suspect, lang)} — " in text
        line = next(x for x in text.splitlines() if f"{card_name(suspect, lang)} — " in x)
        assert where in line, (line, where)
    for weapon, room in game.table.weapons:
        assert f"{card_name(weapon, lang)} — {card_name(room, lang)}" in text


async def test_status_shows_the_turn_its_step_the_board_and_the_players(table: Party) -> None:
    fix_seed(table, 12)
    people = [table.alice, table.bob, table.carol]
    game_id = await open_classic(table, people)
    player = TablePlayer(table, game_id, people)
    player.auto_refute = False
    game = await player.game()
    who = await player.current()

    text = (await _status(table)).text
    assert "Turn 1" in text and f"@{who.username}" in text and "roll the dice" in text
    assert "Time runs out" in text
    _board_named(text, game)
    for person in people:
        assert f"@{person.username}" in text

    await table.bot.press(who, prompt(table), "🎲 Roll")
    game = await player.game()
    assert game.table is not None
    text = (await _status(table)).text
    assert f"Rolled {sum(game.table.dice)}: next, move" in text

    # Play on until a refuter is choosing: /status names them, and no card.
    choice = button(prompt(table), "🚪") or button(prompt(table), "➡️")
    assert choice is not None
    await player.press(who, prompt(table), choice)
    game = await player.game()
    assert game.table is not None
    if game.table.step.value == "moved":
        assert "Has moved: next, end the turn or accuse" in (await _status(table)).text
        await player.press(who, prompt(table), "⏹ End turn")
    else:
        assert "In a room: next, suggest" in (await _status(table)).text
        await player.suggest_if_offered(who)
    for _ in range(30):
        game = await player.game()
        if game.table is not None and game.table.pending is not None:
            break
        await player.turn()
    game = await player.game()
    assert game.table is not None and game.table.pending is not None
    refuter = game.players[game.table.pending.refuter or 0]
    text = (await _status(table)).text
    name = next(f"@{p.username}" for p in people if p.id == refuter.user)
    assert f"Waiting for {name} to show a card" in text
    _board_named(text, game)
    seats = text.split("Players")[-1].strip().splitlines()[1:]
    assert len(seats) == 3  # one line per player: the person and their suspect, no hand
    for line, seat in zip(seats, game.players, strict=True):
        assert line == f"• @{player.people[seat.user].username} ({card_name(seat.role)})"


async def test_status_names_who_is_out_and_who_left_and_pause(table: Party) -> None:
    fix_seed(table, 5)
    people = [table.alice, table.bob, table.carol]
    game_id = await open_classic(table, people)
    player = TablePlayer(table, game_id, people)
    game = await player.game()
    assert game.envelope is not None
    first = await player.current()
    wrong = (
        game.envelope[0],
        game.envelope[1],
        "kitchen" if game.envelope[2] != "kitchen" else "hall",
    )
    await player.accuse(first, wrong)
    leaver = await player.current()
    await table.bot.say(table.alice, table.group, f"/remove @{leaver.username}")
    await table.bot.say(table.alice, table.group, "/pause")
    text = (await _status(table)).text
    assert "The game is paused" in text and "Time runs out" not in text
    assert f"@{first.username} (" in text and "out after a wrong accusation" in text
    assert "left the game" in text
    line = next(x for x in text.splitlines() if f"@{leaver.username}" in x and "•" in x)
    assert "left the game" in line


async def test_status_in_russian(table: Party) -> None:
    people = [table.alice, table.bob, table.carol]
    for person in [*people, table.dave]:
        person.language_code = "ru"
    await table.bot.say(table.alice, table.group, "/language ru")
    fix_seed(table, 12)
    game_id = await open_classic(table, people, words="/newgame классика")
    player = TablePlayer(table, game_id, people, lang="ru")
    game = await player.game()
    text = (await _status(table)).text
    assert "Ход 1" in text and "бросить кубики" in text and "Игроки" in text
    _board_named(text, game, "ru")
    assert "Turn" not in text and "Players" not in text
