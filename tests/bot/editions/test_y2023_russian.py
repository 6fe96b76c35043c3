"""The 2023 edition in Russian: the posts, prompts, clue cards, the edition's card names and
its rules in Russian."""

from __future__ import annotations

from engine.state import Phase
from engine.y2023.state import y2023_of
from tests.support.catalogs import literal
from tests.support.harness import Party, bot_messages
from tests.support.play import card_name
from tests.support.table_play import TablePlayer, button, fix_seed, open_classic, prompt

SEED = 6  # the first roll shows a magnifying glass: a clue card is read in Russian


async def test_the_2023_edition_in_russian(table: Party) -> None:
    people = [table.alice, table.bob, table.carol]
    for person in people:
        person.language_code = "ru"
    await table.bot.say(table.alice, table.group, "/language ru")
    fix_seed(table, SEED)
    game_id = await open_classic(table, people, words="/newgame 2023")
    player = TablePlayer(table, game_id, people, lang="ru")
    game = await player.game()
    assert game.table is not None and y2023_of(game.table) is not None
    achievements = literal("ru", "achievements.post")  # the post after the end's
    texts = [m.text for m in bot_messages(table.group) if not m.text.startswith(achievements)]
    assert any(t.startswith("🎲 «Клуэдо», издание 2023 года, начинается") for t in texts)
    assert any("мистера Блэка" in t for t in texts)
    start = next(t for t in texts if "издание 2023 года" in t)
    for name in ("Шеф Уайт", "Мэр Грин", "Адвокат Пикок"):
        assert name in start  # the roster and the cards name the edition's characters
    for person in people:
        hand = next(m.text for m in person.private_messages() if "Ваши карты" in m.text)
        mine = game.player_of(person.id)
        assert mine is not None and all(card_name(c, "ru") in hand for c in mine.hand)
    await table.bot.say(table.alice, table.group, "/rules")
    rules = bot_messages(table.group)[-1].text
    assert "издание 2023 года" in rules and "Лупа" in rules
    who = await player.current()
    await player.press(who, prompt(table), player.label("button.roll"))
    choice = button(prompt(table), "🚪") or button(prompt(table), "➡️")
    assert choice is not None
    await player.press(who, prompt(table), choice)  # the move first, then the clue card
    assert "лупа" in prompt(table).text
    await player.press(who, prompt(table), player.label("button.draw_clue"))
    achievements = literal("ru", "achievements.post")  # the post after the end's
    texts = [m.text for m in bot_messages(table.group) if not m.text.startswith(achievements)]
    assert any("выбрасывает лупу и тянет карту-подсказку" in t for t in texts)
    assert any("показывает всем карту" in t for t in texts)
    await player.suggest_if_offered(who)
    if (await player.current()) is who and (await player.game()).table.pending is None:  # type: ignore[union-attr]
        await player.press(who, prompt(table), player.label("button.end_turn"))
    for _ in range(40):
        game = await player.game()
        assert game.table is not None and game.envelope is not None
        if game.phase is Phase.ENDED:
            break
        if isinstance(game.table.place_of(game.players[game.table.current].role), str):
            who = await player.current()
            await player.roll_and_stay(who)
            await player.accuse(who, game.envelope)
            break
        await player.turn()
    game = await player.game()
    assert game.phase is Phase.ENDED and game.winner is not None and game.envelope is not None
    achievements = literal("ru", "achievements.post")  # the post after the end's
    texts = [m.text for m in bot_messages(table.group) if not m.text.startswith(achievements)]
    assert all(card_name(c, "ru") in texts[-1] for c in game.envelope)
