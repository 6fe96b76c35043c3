"""The same game in Russian: every text comes from the Russian catalog."""

from __future__ import annotations

import re
from datetime import timedelta

from engine.cards import Category
from engine.state import Phase
from fakebot import FakeMessage
from tests.support.harness import Party, bot_messages
from tests.support.play import card_name, open_and_start, state


def _english_words(message: FakeMessage) -> list[str]:
    """Latin words in a message, other than @usernames, commands, setting names and the
    group's own title (private messages name the game's chat)."""
    text = message.text.replace("Cluedo club", " ")
    text = re.sub(r"[@/][\w]+|https?://\S+|\([A-Za-z_/]+\)", " ", text)
    return [w for w in re.findall(r"[A-Za-z]{3,}", text) if w not in {"UTC", "Whodunit"}]


async def test_a_game_in_russian(table: Party) -> None:
    for person in table.players:
        person.language_code = "ru"
    await table.bot.say(table.alice, table.group, "/language ru")
    game_id = await open_and_start(table, join_text="Вступить", start_text="Начать игру")
    game = await state(table, game_id)
    carol = game.player_of(table.carol.id)
    assert carol is not None
    held = carol.hand[0]
    cards = {c: game.in_play(c)[0] for c in (Category.SUSPECT, Category.WEAPON, Category.PLACE)}
    cards[game.pack.category_of(held)] = held  # type: ignore[index]
    cards = {
        c: v
        if v == held or v not in carol.hand
        else next(x for x in game.in_play(c) if x not in carol.hand)
        for c, v in cards.items()
    }
    typed = "; ".join(card_name(c, "ru").lower() for c in cards.values())
    await table.bot.say(table.bob, table.group, f"/suggest @carol {typed}")
    post = bot_messages(table.group)[-1]
    assert post.text.startswith("Предположение 1 для игрока @carol"), post.text
    prompt = await table.carol.wait_private(lambda m: bool(m.buttons))
    await table.bot.press(table.carol, prompt, card_name(held, "ru"))
    assert any(card_name(held, "ru") in m.text for m in table.bob.private_messages())
    await table.bot.say(table.bob, None, "/accuse")
    composer = table.bob.private_messages()[-1]
    assert game.envelope is not None
    for card in game.envelope:
        await table.bot.press(table.bob, composer, card_name(card, "ru"))
        composer = next(
            m for m in table.bob.private_messages() if m.message_id == composer.message_id
        )
    await table.bot.press(table.bob, composer, "Да, обвиняю")
    await table.bot.advance(timedelta(hours=24, seconds=1))
    assert (await state(table, game_id)).phase is Phase.ENDED
    assert "@bob" in bot_messages(table.group)[-1].text

    everything = bot_messages(table.group) + [
        m for person in table.players for m in person.private_messages()
    ]
    assert len(everything) > 20
    for message in everything:
        assert not _english_words(message), message.text
        assert re.search("[а-яА-ЯёЁ]", message.text), message.text
