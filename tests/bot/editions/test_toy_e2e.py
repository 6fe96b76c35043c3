"""The toy fourth edition played end to end on the bot side: the real bot, given the toy's
presentation (`TOY_BOT`) and an engine registry with the toy (`TOY_REGISTRY`), against the
fake Bot API: `/newgame d4`, the lobby filled by its button, turns played by the prompt's
buttons with a four-sided die, a knock told to the group, and a winning accusation."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.editions.registry import EDITIONS
from engine.events import DiceRolled
from engine.format import format_of
from engine.state import Phase
from fakebot import FakeTelegram
from tests.support.harness import BotHarness, Clock, Party, bot_messages, database_url, end_post
from tests.support.play import card_name
from tests.support.table_play import TablePlayer, fix_seed, open_classic
from tests.support.toy_edition import FACES, TOY, TOY_REGISTRY, Knock, ToyPart
from tests.support.toy_edition.bot import TOY_BOT

SEED = 12


@pytest.fixture
async def toy(server: FakeTelegram, tmp_path: Path) -> AsyncIterator[Party]:
    """The `table` party, the bot playing the toy besides the shipped formats."""
    names = ("Alice", "Bob", "Carol", "Dave")
    people = [server.add_user(n, username=n.lower(), language_code="en") for n in names]
    group = server.add_group("Cluedo club", admins=people[:1], members=people[1:], bot_admin=True)
    harness = BotHarness(
        server,
        database_url(tmp_path),
        Clock(),
        editions=(*EDITIONS, TOY_BOT),
        registry=TOY_REGISTRY,
    )
    await harness.start()
    try:
        yield Party(server, harness, group, *people)
    finally:
        await harness.stop()


async def test_the_toy_edition_played_by_buttons_to_a_winning_accusation(toy: Party) -> None:
    fix_seed(toy, SEED)
    people = [toy.alice, toy.bob, toy.carol]
    game_id = await open_classic(toy, people, words="/newgame d4")
    runner = TablePlayer(toy, game_id, people)
    game = await runner.game()
    assert format_of(game) is TOY and game.phase is Phase.RUNNING
    assert game.table is not None and game.envelope is not None
    envelope = game.envelope

    # Each player got their own hand privately.
    for player in game.players:
        person = next(p for p in people if p.id == player.user)
        hand = next(m for m in person.private_messages() if "Your cards" in m.text)
        assert all(card_name(c) in hand.text for c in player.hand)

    # Turns by the prompt's buttons: the one die has four faces.
    for _ in range(3):
        await runner.turn()
    game = await runner.game()
    assert game.phase is Phase.RUNNING
    rolls = [
        e.dice for e in await toy.bot.services.store.events(game_id) if isinstance(e, DiceRolled)
    ]
    assert rolls and all(len(dice) == 1 and 1 <= dice[0] <= FACES for dice in rolls)

    # The toy's own command, run as a handler runs one: the group is told of the knock.
    knocker = await runner.current()
    await toy.bot.services.run(game_id, Knock(actor=knocker.id))
    await toy.bot.settle()
    game = await runner.game()
    assert game.table is not None and game.table.edition == ToyPart(knocks=1)
    told = [m.text for m in bot_messages(toy.group) if "knocks on the table" in m.text]
    assert told == [f"✊ @{knocker.username} knocks on the table (knock 1)."]

    # The current player accuses with the envelope and wins; the group is told the cards.
    winner = await runner.current()
    await runner.accuse(winner, envelope)
    game = await runner.game()
    won = game.player_of(winner.id)
    assert won is not None and game.phase is Phase.ENDED and game.winner == won.seat
    final = end_post(toy.group)
    assert all(card_name(c) in final.text for c in envelope)
