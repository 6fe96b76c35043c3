"""The 2023 edition's setup through the fake Bot API, tried as a new user would: a lobby of
two starts with no setting changed (an admin's higher minimum still wins); three players
dealt all 18 cards (no card face down in a room); two players dealt seven each with four
in rooms; characters chosen on the lobby post, first come first served; the announced
first player plays turn 1. Each person's view is printed (pytest -s shows it)."""

from __future__ import annotations

import pytest

from engine.state import Game, Phase
from engine.y2023.state import y2023_of, y2023_part
from fakebot import FakeUser
from locales import t
from tests.support.harness import Party, bot_messages
from tests.support.play import card_name, lobby_post
from tests.support.table_play import fix_seed, open_classic


def _label(key: str, **args: str) -> str:
    return t("en", key, **args)


def _shown(who: str, texts: list[str]) -> None:
    print(f"--- {who} sees:")
    for text in texts:
        print("   ", text.replace("\n", "\n    "))


def _dealt_privately(person: FakeUser) -> list[str]:
    """The cards the bot listed in this person's "Your cards" message."""
    hand = next(m.text for m in person.private_messages() if "Your cards" in m.text)
    listed = hand.split("Your cards:", 1)[1].split("\n", 1)[0]
    return [name.strip() for name in listed.split(",")]


async def _game(table: Party) -> Game:
    ref = await table.bot.services.store.game_for_chat(table.group.id, 0)
    assert ref is not None
    return await table.bot.services.store.load(ref.id)


async def test_a_lobby_of_two_starts_with_no_setting_changed(table: Party) -> None:
    """The edition's own range, 2 to 6 ("Du-ludanta ludo"), with no /settings sent."""
    for person in (table.alice, table.bob):
        person.start_bot()
    await table.bot.settle()
    await table.bot.say(table.alice, table.group, "/newgame 2023")
    assert "At least 2 players are needed" in lobby_post(table).text
    await table.bot.press(table.bob, lobby_post(table), _label("button.join"))
    await table.bot.press(table.alice, lobby_post(table), _label("button.start"))
    game = await _game(table)
    assert game.phase is Phase.RUNNING and len(game.players) == 2


async def test_an_admins_minimum_of_three_still_refuses_a_2023_lobby_of_two(
    table: Party,
) -> None:
    for person in (table.alice, table.bob):
        person.start_bot()
    await table.bot.settle()
    await table.bot.say(table.alice, table.group, "/newgame 2023")
    await table.bot.say(table.alice, table.group, "/settings min_players 3")
    _shown("the group", [m.text for m in bot_messages(table.group)])
    assert "At least 3 players are needed" in lobby_post(table).text
    await table.bot.press(table.bob, lobby_post(table), _label("button.join"))
    answer = await table.bot.press(table.alice, lobby_post(table), _label("button.start"))
    _shown("alice (the toast)", [answer.text])
    assert answer.text == "Not enough players: 2 joined, at least 3 are needed."
    assert (await _game(table)).phase is Phase.LOBBY


async def test_three_players_are_dealt_all_18_cards_and_none_lies_in_a_room(table: Party) -> None:
    fix_seed(table, 21)
    people = [table.alice, table.bob, table.carol]
    await open_classic(table, people, words="/newgame 2023")
    game = await _game(table)
    assert game.phase is Phase.RUNNING and game.table is not None
    group = [m.text for m in bot_messages(table.group)]
    _shown("the group", group)
    sizes = []
    for person in people:
        dealt = _dealt_privately(person)
        _shown(person.first_name, [", ".join(dealt)])
        seat = game.player_of(person.id)
        assert seat is not None and sorted(dealt) == sorted(card_name(c) for c in seat.hand)
        sizes.append(len(dealt))
    assert sum(sizes) == 18 and sorted(sizes) == [6, 6, 6]
    assert not any("face down" in text for text in group), "no card lies in a room"
    assert not any("face up" in text for text in group)


async def test_two_players_are_dealt_seven_each_and_four_cards_lie_in_rooms(table: Party) -> None:
    fix_seed(table, 21)
    people = [table.alice, table.bob]
    await open_classic(table, people, words="/newgame 2023")
    game = await _game(table)
    assert game.table is not None and y2023_of(game.table) is not None
    group = [m.text for m in bot_messages(table.group)]
    _shown("the group", group)
    for person in people:
        dealt = _dealt_privately(person)
        _shown(person.first_name, [", ".join(dealt)])
        assert len(dealt) == 7
    placed = y2023_part(game.table).placed
    assert len(placed) == 4
    posted = [text for text in group if "four cards lie face down" in text]
    assert len(posted) == 1 and "seven each" in posted[0]
    assert all(card_name(room) in posted[0] for room, _ in placed)
    assert not any("face up" in text for text in group)


async def test_characters_are_chosen_on_the_lobby_post_first_come_first_served(
    table: Party,
) -> None:
    fix_seed(table, 5)
    for person in (table.alice, table.bob, table.carol):
        person.start_bot()
    await table.bot.settle()
    await table.bot.say(table.alice, table.group, "/newgame 2023")
    post = lobby_post(table)
    names = [text for row in post.buttons for text, _ in row]
    assert card_name("chef_white") in names and card_name("plum") in names
    answer = await table.bot.press(table.bob, lobby_post(table), card_name("plum"))
    assert answer.text == "🎭 You play Professor Plum."
    assert "Professor Plum" in lobby_post(table).text
    locked = _label("button.character_taken", room=card_name("plum"))
    refused = await table.bot.press(table.carol, lobby_post(table), locked)
    _shown("carol (the toast)", [refused.text])
    assert refused.text == "That character is already taken: Professor Plum."
    game = await _game(table)
    assert [(e.user, e.role) for e in game.lobby] == [
        (table.alice.id, None),
        (table.bob.id, "plum"),
    ]
    await table.bot.press(table.carol, lobby_post(table), card_name("chef_white"))
    _shown("the group (the lobby post)", [lobby_post(table).text])
    await table.bot.press(table.alice, lobby_post(table), _label("button.start"))
    game = await _game(table)
    roles = {p.user: p.role for p in game.players}
    assert roles[table.bob.id] == "plum" and roles[table.carol.id] == "chef_white"
    assert roles[table.alice.id] not in ("plum", "chef_white")  # a random free one


@pytest.mark.parametrize("seed", [1, 2, 3, 8, 21])
async def test_the_player_announced_as_rolling_highest_plays_turn_1(
    table: Party, seed: int
) -> None:
    fix_seed(table, seed)
    people = [table.alice, table.bob, table.carol, table.dave]
    await open_classic(table, people, words="/newgame 2023")
    game = await _game(table)
    assert game.table is not None and game.table.turn == 1
    first = game.players[game.table.current]
    texts = [m.text for m in bot_messages(table.group)]
    announced = next(text for text in texts if "plays first" in text)
    turn_1 = next(text for text in texts if "Turn 1:" in text)
    _shown("the group", [announced, turn_1])
    assert f"({card_name(first.role)}) rolled highest" in announced
    assert card_name(first.role) in turn_1
    for other in game.players:
        if other.seat != first.seat:
            assert f"({card_name(other.role)}) rolled highest" not in announced
