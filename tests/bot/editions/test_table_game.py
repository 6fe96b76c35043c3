"""A 3-player classic game played by buttons through the fake Bot API, to a winning
accusation; each person saw exactly what they should."""

from __future__ import annotations

import pytest

from engine.cards import CATEGORY_ORDER, Category
from engine.state import Game, Phase
from engine.table.queries import turn_options
from engine.table.setup import table_cards
from fakebot import FakeMessage, FakeUser
from tests.support.harness import Party, bot_messages, end_post
from tests.support.play import card_name
from tests.support.table_play import TablePlayer, button, fix_seed, open_classic, prompt

SEED = 12


def _names(game: Game) -> dict[str, str]:
    return {card_name(c): c for category in CATEGORY_ORDER for c in table_cards(category)}


async def test_a_classic_game_by_buttons_to_a_winning_accusation(table: Party) -> None:
    fix_seed(table, SEED)
    people = [table.alice, table.bob, table.carol]
    game_id = await open_classic(table, people)
    game = await TablePlayer(table, game_id, people).game()
    assert game.phase is Phase.RUNNING and game.table is not None and game.envelope is not None
    names = _names(game)

    # Each player got their own hand privately, and nobody else's.
    for player in game.players:
        person = next(p for p in people if p.id == player.user)
        hand = next(m for m in person.private_messages() if "Your cards" in m.text)
        named = {c for n, c in names.items() if n in hand.text.split("Your character")[0]}
        assert named == set(player.hand)
    # The board came as a picture (a small PNG) with its post.
    pictures = [m for m in bot_messages(table.group) if m.photo is not None]
    assert pictures and all(len(m.photo_bytes) < 200_000 for m in pictures)

    runner = TablePlayer(table, game_id, people)
    for _ in range(60):
        seen = runner.seen
        if seen.passed_over and seen.stayed and seen.passages and seen.suggestions >= 3:
            break
        await runner.turn()
    seen = runner.seen
    assert seen.passed_over >= 1, "a refutation passed over a player who could not refute"
    assert seen.stayed >= 1, "a player moved in by a suggestion suggested there"
    assert seen.passages >= 1, "a secret passage was taken"

    # The shown cards went to the suggesters only, never to the group.
    for suggester, card in seen.shown:
        for person in people:
            got = any(card in m.text and "shows you" in m.text for m in person.private_messages())
            assert got == (person.id == suggester), (person.first_name, card)
    for text in (line for m in bot_messages(table.group) for line in m.text.split("\n")):
        if "has shown" in text or "cannot refute" in text:
            assert not any(n in text for n in names), text
    moved = [m for m in bot_messages(table.group) if m.photo is not None]
    assert len({m.photo_bytes for m in moved}) > 1, "the picture changes as tokens move"

    game = await runner.game()
    assert game.table is not None and game.envelope is not None
    winner = next(p for p in people if p.id == game.players[game.table.current].user)
    await runner.accuse(winner, game.envelope)
    accused = next(m for m in bot_messages(table.group) if "makes an accusation" in m.text)
    role = card_name(game.players[game.table.current].role)  # the accuser's own suspect
    assert not any(n in accused.text.replace(role, "") for n in names), accused.text
    game = await runner.game()
    won = game.player_of(winner.id)
    assert won is not None
    assert game.phase is Phase.ENDED and game.winner == won.seat
    assert game.envelope is not None
    final = end_post(table.group)
    assert all(card_name(c) in final.text for c in game.envelope)


async def test_a_roll_of_six_offers_only_squares_six_away_and_a_room_three_away(
    table: Party, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Miss Scarlett starts in front of the Billiard Room's side door; seed 2 rolls a 6.
    from dataclasses import replace

    from engine.board import CLASSIC
    from engine.board.movement import distances
    from engine.table.classic import Classic

    board = replace(CLASSIC, starts={**CLASSIC.starts, "scarlett": (22, 13)})
    monkeypatch.setattr(Classic, "board", board)
    fix_seed(table, 2)
    people = [table.alice, table.bob, table.carol]
    game_id = await open_classic(table, people)
    player = TablePlayer(table, game_id, people)
    who = await player.current()
    await player.press(who, prompt(table), player.label("button.roll"))
    game = await player.game()
    assert game.table is not None and game.table.dice == (6,)
    offered = prompt(table)
    labels = [text for row in offered.buttons for text in row]
    print("the prompt:", offered.text, labels)
    steps = distances(board, (22, 13), 12, frozenset())
    options = turn_options(game, who.id)
    ends = set(options.squares)
    assert ends and {steps[s] for s in ends} == {6}  # no square at distance 1-5
    assert options.towards and {square for _, square in options.towards} <= ends
    assert button(offered, player.label("button.enter", room=card_name("library"))) is not None
    assert steps[(20, 13)] == 2  # the Library's door square: the room is 3 steps away
    await player.press(who, offered, player.label("button.enter", room=card_name("library")))
    game = await player.game()
    assert game.table is not None and game.table.place_of("scarlett") == "library"


async def test_the_accusation_composer_names_its_game_in_private(table: Party) -> None:
    """Alice plays in two table games (two groups): each composer says which game it is of."""
    from dataclasses import replace

    fix_seed(table, SEED)
    people = [table.alice, table.bob, table.carol]
    poker = replace(
        table,
        group=table.server.add_group(
            "Poker night", admins=[table.alice], members=[table.bob, table.carol], bot_admin=True
        ),
    )
    games = {}
    for party in (table, poker):
        game_id = await open_classic(party, people)
        games[party.group.title] = TablePlayer(party, game_id, people)
    for title, other in (("Cluedo club", "Poker night"), ("Poker night", "Cluedo club")):
        player = games[title]
        who = await player.current()
        await player.press(who, prompt(player.table), player.label("button.accuse"))
        composer = who.private_messages()[-1]
        print(f"{who.first_name}'s composer for {title}:", composer.text)
        assert "An accusation" in composer.text
        assert title in composer.text and other not in composer.text


async def test_each_turn_press_is_answered_with_what_it_did(
    table: Party, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Roll, a room, Suggest, a suspect, a weapon, the refuter's card, End turn, Stay: each
    toast says what the press did (or nothing where the prompt itself changes); only the
    refutation says "Your answer is sent."."""
    from dataclasses import replace

    from engine.board import CLASSIC
    from engine.table.classic import Classic
    from tests.support.table_play import prompt_by_id

    # Miss Scarlett starts near the Library; seed 2 rolls her a 6 (as above).
    board = replace(CLASSIC, starts={**CLASSIC.starts, "scarlett": (22, 13)})
    monkeypatch.setattr(Classic, "board", board)
    fix_seed(table, 2)
    people = [table.alice, table.bob, table.carol]
    game_id = await open_classic(table, people)
    player = TablePlayer(table, game_id, people)
    who = await player.current()
    said: dict[str, str | None] = {}

    async def press(name: str, person: FakeUser, message: FakeMessage, text: str) -> None:
        answer = await table.bot.press(person, message, text)
        assert answer.answered, name  # every press is answered
        said[name] = answer.text
        print(f"{person.first_name} presses {text!r}: toast {answer.text!r}")

    await press("roll", who, prompt(table), player.label("button.roll"))
    library = card_name("library")
    await press("room", who, prompt(table), player.label("button.enter", room=library))
    game = await player.game()
    assert game.table is not None
    me = game.player_of(who.id)
    assert me is not None
    left = game.players[(me.seat + 1) % len(game.players)]  # plays next: moved in, they stay
    weapon = game.in_play(Category.WEAPON)[0]
    offered = prompt(table)
    await press("suggest", who, offered, player.label("button.suggest"))
    await press("suspect", who, prompt_by_id(table, offered), player.card(left.role))
    await press("weapon", who, prompt_by_id(table, offered), player.card(weapon))
    game = await player.game()
    assert game.table is not None and game.table.pending is not None
    refuter = player.people[game.players[game.table.pending.refuter or 0].user]
    ask = [m for m in refuter.private_messages() if m.buttons][-1]
    await press("card", refuter, ask, ask.buttons[0][0][0])
    await press("end", who, prompt(table), player.label("button.end_turn"))
    assert await player.current() is player.people[left.user]
    await press("stay", player.people[left.user], prompt(table), player.label("button.stay"))

    toast = player.label
    assert said == {
        "roll": toast("toast.rolled", total="6"),
        "room": toast("toast.entered", room=library),
        "suggest": None,  # the prompt turns into the composer
        "suspect": None,  # the composer's next step
        "weapon": toast(
            "toast.suggested",
            suspect=card_name(left.role),
            weapon=card_name(weapon),
            room=library,
        ),
        "card": toast("toast.answered"),
        "end": toast("toast.turn_ended"),
        "stay": toast("toast.stayed", room=library),
    }
