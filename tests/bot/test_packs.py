"""A chat's own card pack, set by an admin and played end to end."""

from __future__ import annotations

from engine.cards import Category
from tests.bot.conftest import Table
from tests.bot.harness import bot_messages
from tests.bot.play import open_and_start, state

PACK = """/pack
Suspects: Holmes, Watson, Moriarty, Adler, Lestrade
Weapons: Pistol, Cane, Pipe, Violin, Rope
Places: Baker Street, Reichenbach, Yard, Opium den, Museum, Docks, Club, Tower"""


async def test_a_chat_plays_with_its_own_pack(table: Table) -> None:
    await table.bot.say(table.bob, table.group, PACK)
    assert "Only a chat admin" in bot_messages(table.group)[-1].text
    await table.bot.say(table.alice, table.group, PACK)
    saved = bot_messages(table.group)[-1]
    assert "own pack is saved" in saved.text and "Baker Street" in saved.text
    game_id = await open_and_start(table)
    game = await state(table, game_id)
    names = dict(game.pack.labels)
    assert set(game.deck) <= set(names)
    for player in game.players:
        person = next(p for p in table.players if p.id == player.user)
        hand = next(m for m in person.private_messages() if "Your cards" in m.text)
        assert all(names[card] in hand.text for card in player.hand)
    start = next(m for m in bot_messages(table.group) if "The game begins" in m.text)
    assert all(names[c] in start.text for c in game.deck)
    suspect = names[game.in_play(Category.SUSPECT)[0]]
    weapon = names[game.in_play(Category.WEAPON)[0]]
    place = names[game.in_play(Category.PLACE)[0]]
    await table.bot.say(table.bob, table.group, f"/suggest @carol {suspect[:4]}; {weapon}; {place}")
    post = next(m for m in bot_messages(table.group) if m.text.startswith("Suggestion 1"))
    assert "for @carol" in post.text and post.bold[1:] == [suspect, weapon, place]


async def test_a_pack_with_too_few_places_is_refused(table: Table) -> None:
    await table.bot.say(table.alice, table.group, "/pack\nA, B, C\nD, E, F\nG, H")
    assert "at least 6 places" in bot_messages(table.group)[-1].text
    await table.bot.say(table.alice, table.group, "/pack")
    assert "/pack classic" in bot_messages(table.group)[-1].text


def _ampersand_names(letter: str, count: int) -> list[str]:
    """Card names of 38 characters, 22 of them `&` (each `&amp;` in the bot's HTML, so that
    one line of names is longer in HTML than a message may be)."""
    return [f"{letter}{i:02} " + "&&".join("RDQABBTPGMSH") for i in range(1, count + 1)]


async def test_a_pack_with_ampersands_long_enough_to_split_reaches_everyone(table: Table) -> None:
    suspects, weapons = _ampersand_names("S", 30), _ampersand_names("W", 30)
    places = _ampersand_names("P", 38)
    pack = "\n".join(
        ("/pack", "Suspects: " + ", ".join(suspects), "Weapons: " + ", ".join(weapons))
    ) + ("\nPlaces: " + ", ".join(places))
    assert len(pack) < 4096, "a message a person can send"
    await table.bot.say(table.alice, table.group, pack)
    await table.bot.say(table.alice, table.group, "/settings extra_cards 26")  # all in play
    game = await state(table, await open_and_start(table))
    refused = [c.response for c in table.server.calls_to("sendMessage") if not c.ok]
    assert refused == [], "a part was refused"
    posts = [m.text for m in bot_messages(table.group)]
    begins = next(i for i, text in enumerate(posts) if "The game begins" in text)
    ends = next(i for i in range(begins, len(posts)) if "Days last" in posts[i])
    assert ends > begins, "the start post needed more than one message"
    start = "\n".join(posts[begins : ends + 1])
    assert len(game.deck) == 30 + 30 + 33
    assert all(dict(game.pack.labels)[card] in start for card in game.deck), "no card lost"
    saved = "\n".join(posts[:begins])
    assert all(name in saved for name in suspects + weapons + places)
