"""A classic game in Russian: the prompts, posts and cards in Russian."""

from __future__ import annotations

from engine.state import Phase
from tests.support.catalogs import literal
from tests.support.harness import Party, bot_messages
from tests.support.play import card_name
from tests.support.table_play import TablePlayer, fix_seed, open_classic


async def test_a_classic_game_in_russian(table: Party) -> None:
    people = [table.alice, table.bob, table.carol]
    for person in people:
        person.language_code = "ru"
    await table.bot.say(table.alice, table.group, "/language ru")
    fix_seed(table, 12)
    game_id = await open_classic(table, people, words="/newgame классика")
    player = TablePlayer(table, game_id, people, lang="ru")
    for _ in range(6):
        await player.turn()
    game = await player.game()
    assert not game.format.has_days and game.envelope is not None
    for person in people:
        hand = next(m for m in person.private_messages() if "Ваши карты" in m.text)
        mine = game.player_of(person.id)
        assert mine is not None
        assert all(card_name(c, "ru") in hand.text for c in mine.hand)
    await player.accuse(await player.current(), game.envelope)
    game = await player.game()
    assert game.phase is Phase.ENDED and game.winner is not None
    assert game.envelope is not None
    achievements = literal("ru", "achievements.post")  # the post after the end's
    texts = [m.text for m in bot_messages(table.group) if not m.text.startswith(achievements)]
    assert any(t.startswith("🎲 Классическое «Клуэдо» начинается") for t in texts)
    assert any("выбрасывает" in t for t in texts)
    assert all(card_name(c, "ru") in texts[-1] for c in game.envelope)
    assert not any("Roll" in t or "Turn " in t for t in texts)
