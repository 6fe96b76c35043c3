"""A Liars Edition turn by buttons through the fake Bot API, as the rulebook plays it: the
die first (only Roll and Accuse before it), then move, the passage or stay; the
investigation card is a step of the turn (no End turn before it); a turn whose time runs
out has the GM read the card."""

from __future__ import annotations

from datetime import timedelta

from engine.liars.state import Stage, liars_of, liars_part
from fakebot import FakeMessage
from tests.support.harness import Party, bot_messages
from tests.support.liars_play import LiarsPlayer
from tests.support.table_play import fix_seed, open_classic, prompt

SEED = 21


def _labels(message: FakeMessage) -> list[str]:
    return [text for row in message.buttons for text, _ in row]


def _show(title: str, message: FakeMessage) -> None:
    print(f"--- {title}\n{message.text}\n{_labels(message)}")


async def _start(table: Party) -> LiarsPlayer:
    people = [table.alice, table.bob, table.carol]
    game_id = await open_classic(table, people, words="/newgame liars")
    return LiarsPlayer(table, game_id, people)


async def test_a_liars_turn_rolls_then_stays_then_plays_the_investigation_card(
    table: Party,
) -> None:
    fix_seed(table, SEED)
    player = await _start(table)
    game = await player.game()
    assert game.table is not None
    reader = player.user(game.table.current, game)
    start = prompt(table)
    _show("the turn begins", start)
    assert _labels(start) == [player.label("button.roll"), player.label("button.accuse")]

    await player.press(reader, start, player.label("button.roll"))
    rolled = prompt(table)
    _show("rolled", rolled)
    labels = _labels(rolled)
    assert "you rolled" in rolled.text and "secret passage" in rolled.text
    assert player.label("button.stay_here") in labels
    assert any(b.startswith("🕳") and player.card("conservatory") in b for b in labels)
    assert any(b.startswith("🚪") for b in labels)
    assert player.label("button.roll") not in labels and player.label("button.accuse") not in labels

    await player.press(reader, rolled, player.label("button.stay_here"))
    stayed = prompt(table)
    _show("stayed", stayed)
    assert player.label("button.end_turn") not in _labels(stayed), "the card comes first"
    assert any(b.startswith("📜") for b in _labels(stayed))
    game = await player.game()
    assert game.table is not None and game.table.place_of(game.players[0].role) == "lounge"

    await player.suggest(reader)
    after = prompt(table)
    _show("suggested", after)
    assert player.label("button.end_turn") not in _labels(after)
    read = next(b for b in _labels(after) if b.startswith("📜"))
    await player.press(reader, after, read)
    assert any("reads their investigation card" in m.text for m in bot_messages(table.group))
    await table.bot.advance(game.settings.liar_window + timedelta(seconds=1))
    game = await player.game()
    assert game.table is not None and liars_of(game.table) is not None
    play = liars_part(game.table).play
    assert play is not None and play.turn == 1
    if play.stage is Stage.PASSING:
        await player.pass_cards()
    last = prompt(table)
    _show("card played", last)
    assert player.label("button.end_turn") in _labels(last)
    await player.press(reader, last, player.label("button.end_turn"))
    game = await player.game()
    assert game.table is not None and game.table.turn == 2


async def test_a_liars_turn_out_of_time_has_the_gm_read_the_card(table: Party) -> None:
    fix_seed(table, SEED)
    player = await _start(table)
    game = await player.game()
    assert game.table is not None
    reader = player.user(game.table.current, game)
    await player.press(reader, prompt(table), player.label("button.roll"))
    await player.press(reader, prompt(table), player.label("button.stay_here"))
    await table.bot.advance(game.settings.turn_time + timedelta(seconds=1))
    group = [m.text for m in bot_messages(table.group)]
    gm = [t for t in group if "the GM reads it for them" in t]
    print("\n".join(gm))
    assert len(gm) == 1 and f"@{reader.username}" in gm[0]
    assert "“I may move to any room" in gm[0] or "“Every player" in gm[0] or "“I may look" in gm[0]
    game = await player.game()
    assert game.table is not None and liars_of(game.table) is not None
    play = liars_part(game.table).play
    assert play is not None and play.by_gm and play.turn == 1
    await table.bot.advance(game.settings.liar_window + game.settings.refute_time * 2)
    game = await player.game()
    assert game.table is not None and game.table.turn == 2
    assert game.table.seats[0].missed == 1
    await table.bot.say(table.bob, table.group, "/rules")
    rules = bot_messages(table.group)[-1].text
    assert "roll the die first" in rules and "the GM reads it for you" in rules
