"""The 2023 edition through the fake Bot API: a game by buttons to a win, a look at a card
placed in a room (only that player sees it), a clue card that makes its holder reveal a card
to everyone, an accusation refused before the move and outside a room, and the two-player
game (started by two, with no setting changed).

Seeds are chosen so the first turn does what a test needs (the engine's deal, rolls and
clue deck all come from the game's seed)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.state import Game, Phase
from engine.y2023.cards import TWO_PLAYER_HAND
from engine.y2023.state import y2023_of, y2023_part
from fakebot import FakeUser
from locales import t
from tests.support.harness import Party, bot_messages, end_post
from tests.support.play import card_name
from tests.support.table_play import (
    TablePlayer,
    button,
    fix_seed,
    open_classic,
    prompt,
    prompt_turn,
    told_since,
)

PEEK_SEED = 4  # a three-player game whose first player starts in the corridor
TWO_PEEK_SEED = 11  # two players: the first roll reaches the ballroom, which holds a card
REVEAL_SEED = 6  # the first roll shows a magnifying glass: another player must reveal a card


async def _open(table: Party, people: list[FakeUser], seed: int) -> TablePlayer:
    game_id = await open_classic(table, people, words="/newgame 2023")
    player = TablePlayer(table, game_id, people)
    game = await player.game()
    assert game.phase is Phase.RUNNING and game.table is not None
    assert y2023_of(game.table) is not None and game.seed == seed
    return player


def _private_texts(person: FakeUser) -> list[str]:
    return [m.text for m in person.private_messages()]


async def _current(player: TablePlayer) -> tuple[Game, FakeUser]:
    game = await player.game()
    return game, await player.current()


async def test_a_2023_game_by_buttons_to_a_winning_accusation(table: Party) -> None:
    fix_seed(table, 21)
    people = [table.alice, table.bob, table.carol]
    player = await _open(table, people, 21)
    texts = [m.text for m in bot_messages(table.group)]
    assert any("the 2023 edition, begins" in t and "Mr Black" in t for t in texts)
    assert not any("lie face down" in t for t in texts), "three players: no card in a room"
    assert [m for m in bot_messages(table.group) if m.photo is not None], "the board picture"
    game = await player.game()
    for seat in game.players:  # each hand privately, with the edition's card names
        person = next(p for p in people if p.id == seat.user)
        hand = next(m.text for m in person.private_messages() if "Your cards" in m.text)
        assert all(card_name(c) in hand for c in seat.hand)
    game, who = await _current(player)
    mine = prompt(table)  # only the current player's private chat has the turn's buttons
    assert mine.chat.id == who.id
    for other in (p for p in people if p is not who):
        assert all(prompt_turn(m) is None for m in other.private_messages())
    for _ in range(80):
        game, who = await _current(player)
        if game.phase is Phase.ENDED:
            break
        assert game.table is not None and game.envelope is not None
        in_room = isinstance(game.table.place_of(game.players[game.table.current].role), str)
        accuse = player.label("button.accuse")
        assert button(prompt(table), accuse) is None, "no accusation before the roll"
        if in_room and game.table.turn > 6:
            await player.roll_and_stay(who)
            assert button(prompt(table), accuse) is not None, "after the move, in a room"
            await player.accuse(who, game.envelope)
            break
        await player.turn()
    game = await player.game()
    assert game.phase is Phase.ENDED and game.winner is not None
    assert game.envelope is not None
    final = end_post(table.group).text
    assert all(card_name(c) in final for c in game.envelope)
    assert player.seen.suggestions >= 1
    sent = [*bot_messages(table.group), *(m for p in people for m in p.private_messages())]
    markups = [m.reply_markup for m in sent if m.reply_markup]
    markups += [v.reply_markup for m in sent for v in m.edits if v.reply_markup]
    data = [
        b["callback_data"]
        for markup in markups
        for row in markup["inline_keyboard"]
        for b in row
        if "callback_data" in b
    ]
    assert data and all(len(d.encode()) <= 64 for d in data), "callback data over 64 bytes"


async def test_a_look_at_a_card_placed_in_a_room_only_that_player_sees_it(table: Party) -> None:
    """Only the two-player game places cards in rooms."""
    fix_seed(table, TWO_PEEK_SEED)
    people = [table.alice, table.bob]
    player = await _open(table, people, TWO_PEEK_SEED)
    game, mover = await _current(player)
    assert game.table is not None and y2023_of(game.table) is not None
    card = y2023_part(game.table).card_in("ballroom")
    assert card is not None
    before = len(bot_messages(table.group))
    await player.press(mover, prompt(table), player.label("button.roll"))
    await player.press(mover, prompt(table), "🚪 " + card_name("ballroom"))
    game = await player.game()
    assert (
        game.table is not None
        and game.table.place_of(game.players[game.table.current].role) == "ballroom"
    )
    looked = [t for t in _private_texts(mover) if "lying face down in the" in t]
    assert len(looked) == 1 and card_name(card) in looked[0]
    for other in people:
        if other is not mover:
            assert not any("lying face down in the" in t for t in _private_texts(other))
    after = told_since(table, before)
    assert any("looks at the card lying face down in the" in t for t in after)
    assert not any(card_name(card) in t for t in after), "the group never learns the card"
    await player.press(mover, prompt(table), player.label("button.end_turn"))
    await table.bot.say(mover, None, "/hand")
    hand = mover.private_messages()[-1].text
    assert card_name(card) in hand.split("Also seen:")[-1]
    days = t("en", "hand.day_counts", left=0, owes=0, owed=0).split(":")[0]
    assert days not in hand, "the table has no days: /hand counts no day's suggestions"


async def test_a_clue_card_makes_its_holder_reveal_a_card_to_everyone(table: Party) -> None:
    fix_seed(table, REVEAL_SEED)
    people = [table.alice, table.bob, table.carol]
    player = await _open(table, people, REVEAL_SEED)
    game, reader = await _current(player)
    before = len(bot_messages(table.group))
    await player.press(reader, prompt(table), player.label("button.roll"))
    rolled = prompt(table)
    move = button(rolled, "🚪") or button(rolled, "➡️")
    assert move is not None
    await player.press(reader, rolled, move)  # moving comes first
    await player.press(reader, prompt(table), player.label("button.draw_clue"))
    game = await player.game()
    assert game.table is not None and y2023_of(game.table) is not None
    (card,) = y2023_part(game.table).revealed
    holder = next(p for p in game.players if card in p.hand)
    assert holder.seat != game.table.current
    after = told_since(table, before)
    assert any("draws a clue card" in t and card_name(card) in t for t in after)
    revealed = [t for t in after if "to everyone, then takes it back" in t]
    assert len(revealed) == 1 and card_name(card) in revealed[0]
    assert card_name(holder.role) in revealed[0]


async def _typed_accusation(player: TablePlayer, who: FakeUser, refusal: str) -> None:
    """/accuse in private, the envelope's cards composed and confirmed: refused, with the
    catalog's answer, and nothing changes."""
    before = await player.game()
    assert before.envelope is not None
    await player.table.bot.say(who, None, "/accuse")  # the accusation composer, in private
    composer = who.private_messages()[-1]
    for card in before.envelope:
        await player.press(who, composer, card_name(card))
        composer = next(m for m in who.private_messages() if m.message_id == composer.message_id)
    confirm = player.label("button.confirm_accusation")
    answer = await player.table.bot.press(who, composer, confirm)
    shown = [answer.text, *_private_texts(who)[-2:]]
    assert any(refusal in (text or "") for text in shown), shown
    after = await player.game()
    assert after.phase is Phase.RUNNING and after.accusations == ()
    assert after.players == before.players and after.table == before.table


async def test_an_accusation_before_the_move_or_outside_a_room_is_refused(table: Party) -> None:
    fix_seed(table, PEEK_SEED)
    people = [table.alice, table.bob, table.carol]
    player = await _open(table, people, PEEK_SEED)
    game, who = await _current(player)
    assert game.table is not None
    assert isinstance(game.table.place_of(game.players[game.table.current].role), tuple)
    assert button(prompt(table), player.label("button.accuse")) is None
    await _typed_accusation(player, who, "In the 2023 edition you accuse after your move")
    await player.press(who, prompt(table), player.label("button.roll"))
    square = button(prompt(table), "➡️")
    assert square is not None
    await player.press(who, prompt(table), square)
    assert button(prompt(table), player.label("button.accuse")) is None
    refusal = "In the 2023 edition you accuse from a room (any room): move into one first."
    await _typed_accusation(player, who, refusal)


async def test_the_two_player_game_seven_cards_each_and_four_in_rooms(table: Party) -> None:
    fix_seed(table, 21)
    people = [table.alice, table.bob]
    player = await _open(table, people, 21)
    game = await player.game()
    assert game.table is not None and y2023_of(game.table) is not None
    assert y2023_part(game.table).face_up == () and len(y2023_part(game.table).placed) == 4
    assert [len(p.hand) for p in game.players] == [TWO_PLAYER_HAND] * 2 == [7, 7]
    posted = next(m.text for m in bot_messages(table.group) if "lie face down" in m.text)
    assert "seven each" in posted
    assert all(card_name(room) in posted for room, _ in y2023_part(game.table).placed)
    hidden = [card for _, card in y2023_part(game.table).placed if card not in game.pack.places]
    assert not any(card_name(card) in posted for card in hidden), "which card stays secret"
    assert not any("face up" in m.text for m in bot_messages(table.group))
    for person in people:
        hand = next(m.text for m in person.private_messages() if "Your cards" in m.text)
        mine = game.player_of(person.id)
        assert mine is not None and all(card_name(c) in hand for c in mine.hand)
    for _ in range(40):
        game, who = await _current(player)
        assert game.table is not None and game.envelope is not None
        if isinstance(game.table.place_of(game.players[game.table.current].role), str):
            await player.roll_and_stay(who)
            await player.accuse(who, game.envelope)
            break
        await player.turn()
    game = await player.game()
    assert game.phase is Phase.ENDED and game.winner is not None


async def test_rules_explain_the_2023_edition(table: Party) -> None:
    fix_seed(table, 21)
    await _open(table, [table.alice, table.bob, table.carol], 21)
    await table.bot.say(table.alice, table.group, "/rules")
    rules = bot_messages(table.group)[-1].text
    assert "the 2023 edition" in rules and "magnifying glass" in rules


async def test_a_rolled_glass_offers_the_clue_card_after_the_move_and_ending_declines_it(
    table: Party,
) -> None:
    fix_seed(table, REVEAL_SEED)
    people = [table.alice, table.bob, table.carol]
    player = await _open(table, people, REVEAL_SEED)
    game, reader = await _current(player)
    before = len(bot_messages(table.group))
    assert button(prompt(table), player.label("button.draw_clue")) is None  # dice first
    await player.press(reader, prompt(table), player.label("button.roll"))
    rolled = prompt(table)
    assert button(rolled, player.label("button.draw_clue")) is None  # then the move
    choice = button(rolled, "🚪") or button(rolled, "➡️")
    assert choice is not None
    await player.press(reader, rolled, choice)
    offered = prompt(table)
    print("prompt after the move:", offered.text)
    assert button(offered, player.label("button.draw_clue")) is not None
    assert "clue card" in offered.text
    await player.press(reader, offered, player.label("button.end_turn"))  # declined
    game = await player.game()
    assert game.table is not None and y2023_of(game.table) is not None
    assert y2023_part(game.table).revealed == () and y2023_part(game.table).clue_turn == 0
    texts = told_since(table, before)
    assert not any("draws a clue card" in t for t in texts)
    assert button(prompt(table), player.label("button.draw_clue")) is None


async def test_a_turn_begun_in_a_room_rolls_a_glass_stays_then_draws_before_suggesting(
    table: Party, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every token set up in the Hall (the setup alone sees this board; play uses the real one).
    from dataclasses import replace

    from engine.y2023 import setup
    from engine.y2023.board import Y2023_BOARD

    in_rooms: dict[str, Any] = {s: "hall" for s in Y2023_BOARD.starts}  # rooms, not squares
    in_the_hall = replace(Y2023_BOARD, starts=in_rooms)
    monkeypatch.setattr(setup, "Y2023_BOARD", in_the_hall)
    fix_seed(table, REVEAL_SEED)
    people = [table.alice, table.bob, table.carol]
    player = await _open(table, people, REVEAL_SEED)
    game, reader = await _current(player)
    assert game.table is not None
    mine = game.players[game.table.current].role
    assert game.table.place_of(mine) == "hall"
    before = len(bot_messages(table.group))
    start = prompt(table)
    assert button(start, player.label("button.stay")) is None  # every turn: the dice first
    await player.press(reader, start, player.label("button.roll"))
    rolled = prompt(table)
    print("prompt after the roll:", rolled.text, rolled.buttons)
    assert button(rolled, player.label("button.draw_clue")) is None  # the move comes first
    stay = button(rolled, player.label("button.stay"))
    assert stay is not None
    await player.press(reader, rolled, stay)  # staying is their move
    game = await player.game()
    assert game.table is not None and y2023_of(game.table) is not None
    assert game.table.place_of(mine) == "hall" and y2023_part(game.table).clue_turn == 0
    offered = prompt(table)
    assert button(offered, player.label("button.draw_clue")) is not None
    assert button(offered, player.label("button.suggest")) is not None
    await player.press(reader, offered, player.label("button.draw_clue"))
    texts = told_since(table, before)
    assert any("draws a clue card" in t for t in texts)
    after = prompt(table)
    assert button(after, player.label("button.draw_clue")) is None  # once a turn
    assert button(after, player.label("button.suggest")) is not None
