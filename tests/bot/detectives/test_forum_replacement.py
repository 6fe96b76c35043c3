"""A forum game where a player leaves and an admin hands the seat to a computer detective:
it answers the prompt the seat owes, is named as a computer everywhere, and makes its
suggestions the next day under the game's clock."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from engine.computer import detective_level
from engine.deadlines import deadlines
from engine.settings import Settings
from engine.state import Answer
from fakebot import FakeUser
from tests.support.harness import BotHarness, Clock, Party, bot_messages, database_url
from tests.support.play import card_name, naming, open_and_start, state

DELAY = Settings().detective_delay


async def compose_to(table: Party, who: FakeUser, target: str, cards: tuple[str, str, str]) -> None:
    """The private composer: /suggest, then the target by its name, the cards, send."""
    await table.bot.say(who, None, "/suggest")
    composer = who.private_messages()[-1]
    await table.bot.press(who, composer, target)
    for label in [*(card_name(c) for c in cards), "Send the suggestion"]:
        composer = next(m for m in who.private_messages() if m.message_id == composer.message_id)
        await table.bot.press(who, composer, label)


def _typed(target: str, cards: tuple[str, str, str]) -> str:
    return f"/suggest @{target} " + "; ".join(card_name(c) for c in cards)


async def test_a_detective_takes_a_departed_players_seat_and_plays_the_next_day(
    table: Party, tmp_path: Path
) -> None:
    game_id = await open_and_start(table)
    game = await state(table, game_id)
    carol = game.player_of(table.carol.id)
    assert carol is not None
    held = carol.hand[0]
    await table.bot.say(table.bob, table.group, _typed("carol", naming(game, held)))
    await table.carol.wait_private(lambda m: bool(m.buttons))

    # Carol leaves; only an admin may seat a detective, and it takes her seat.
    await table.bot.say(table.carol, table.group, "/leave")
    await table.bot.say(table.bob, table.group, "/replace @carol inspector")
    assert (await state(table, game_id)).players[carol.seat].user == table.carol.id
    await table.bot.say(table.alice, table.group, "/replace @carol robot")  # no such level
    assert "/replace @old inspector" in bot_messages(table.group)[-1].text
    assert (await state(table, game_id)).players[carol.seat].user == table.carol.id
    await table.bot.say(table.alice, table.group, "/replace @carol inspector")
    game = await state(table, game_id)
    seat = game.players[carol.seat]
    assert detective_level(seat.user) is not None and seat.active
    assert "🤖 Inspector 1" in bot_messages(table.group)[-1].text

    # Bob asks the detective, picking it in the private composer by its name; after its
    # pause it shows him one of its matching cards, which only Bob is told.
    await compose_to(table, table.bob, "🤖 Inspector 1", naming(game, held))
    asked = (await state(table, game_id)).suggestions[-1]
    assert asked.target == carol.seat and asked.answer is Answer.PENDING
    await table.bot.advance(DELAY)
    asked = next(s for s in (await state(table, game_id)).suggestions if s.id == asked.id)
    assert asked.answer is Answer.REFUTED and not asked.by_gm and asked.card in carol.hand
    assert asked.card is not None
    shown = [m.text for m in table.bob.private_messages() if "shows you" in m.text]
    assert "🤖 Inspector 1" in shown[-1] and card_name(asked.card) in shown[-1]
    for person in (table.alice, table.dave):
        assert not any("shows you" in m.text for m in person.private_messages())
    assert not any("🤖 Inspector 1 shows" in m.text for m in bot_messages(table.group))

    # A restart loses no cue: the next day it makes its suggestions, a pause apart, each to
    # a person, who is asked.
    await table.bot.stop()
    table.bot = BotHarness(table.server, database_url(tmp_path), Clock(table.bot.clock.now()))
    await table.bot.start()
    await table.bot.advance(timedelta(days=1))
    game = await state(table, game_id)
    assert game.day == 2
    for _ in range(3):
        await table.bot.advance(DELAY)
    game = await state(table, game_id)
    made = [s for s in game.suggestions if s.day == 2 and s.suggester == carol.seat]
    assert len(made) == game.settings.suggestions_per_day
    for s in made:
        target = game.players[s.target]
        person = next(p for p in table.players if p.id == target.user)
        assert any(m.buttons for m in person.private_messages()) or s.answer is not Answer.PENDING
    posts = [m.text for m in bot_messages(table.group) if "🤖 Inspector 1" in m.text]
    assert len(posts) >= 3
    # It was never sent a message: it has no chat.
    assert seat.user not in {c.params.get("chat_id") for c in table.server.calls}

    # A volunteer comes: an admin hands the detective's seat to her by its name.
    erin = table.server.add_user("Erin", username="erin")
    erin.start_bot()
    await table.bot.settle()
    await table.bot.say(table.alice, table.group, "/replace inspector 1 @erin")
    game = await state(table, game_id)
    assert game.players[carol.seat].user == erin.id
    assert not any(d.key.startswith("detective:") for d in deadlines(game))
    assert any("Your cards" in m.text for m in erin.private_messages())
