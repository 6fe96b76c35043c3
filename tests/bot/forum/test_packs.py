"""A chat's own card pack, set by an admin and played end to end."""

from __future__ import annotations

from engine.cards import CUSTOM, Category
from engine.settings import Settings
from tests.support.harness import Party, bot_messages
from tests.support.play import PACK, open_and_start, state


async def test_a_chat_plays_with_its_own_pack(table: Party) -> None:
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


async def test_a_pack_with_too_few_places_is_refused(table: Party) -> None:
    await table.bot.say(table.alice, table.group, "/pack\nA, B, C\nD, E, F\nG, H")
    assert "at least 6 places" in bot_messages(table.group)[-1].text
    await table.bot.say(table.alice, table.group, "/pack")
    assert "/pack classic" in bot_messages(table.group)[-1].text


def _ampersand_names(letter: str, count: int) -> list[str]:
    """Card names of 38 characters, 22 of them `&` (each `&amp;` in the bot's HTML, so that
    one line of names is longer in HTML than a message may be)."""
    return [f"{letter}{i:02} " + "&&".join("RDQABBTPGMSH") for i in range(1, count + 1)]


async def test_a_pack_with_ampersands_long_enough_to_split_reaches_everyone(table: Party) -> None:
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


async def test_the_custom_pack_setting_is_refused_in_a_chat_without_a_pack(table: Party) -> None:
    await table.bot.say(table.alice, table.group, "/settings pack custom")
    refusal = bot_messages(table.group)[-1]
    assert "no card pack of its own" in refusal.text and "/pack" in refusal.text
    store = table.bot.services.store
    assert (await store.chats.get(table.group.id)).settings.pack == "classic"
    await table.bot.say(table.alice, table.group, "/newgame")
    assert "A new game of Cluedo" in bot_messages(table.group)[-1].text
    await table.bot.say(table.alice, table.group, "/settings pack custom")
    assert "cannot switch to it now" in bot_messages(table.group)[-1].text


async def test_newgame_falls_back_to_classic_when_the_stored_pack_is_missing(
    table: Party,
) -> None:
    # Defaults stored before the setting was refused: they name a pack the chat lacks.
    store = table.bot.services.store
    await store.chats.set_settings(table.group.id, Settings(pack=CUSTOM))
    game_id = await open_and_start(table)
    texts = [m.text for m in bot_messages(table.group)]
    note = next(t for t in texts if "uses the classic cards" in t)
    assert "/pack" in note and "/settings pack classic" in note
    assert any("The game begins" in t for t in texts)
    game = await state(table, game_id)
    assert game.pack.id == "classic" and game.settings.pack == "classic"


PUNCTUATED = """/pack
Dr: Who, Dr. Who?, O'Brien, Mrs. Peacock-Smith
Weapons: Rope!, Rope, ???, Cane: short
Places: Room 101, St. Paul's, Café, Q&A <lab>, Mr. X's den, 221B, Hall"""


async def test_names_with_colons_and_punctuation_are_kept_and_typable(table: Party) -> None:
    await table.bot.say(table.alice, table.group, PUNCTUATED)
    saved = bot_messages(table.group)[-1]
    assert "own pack is saved" in saved.text, saved.text
    for name in ("Dr: Who", "Cane: short", "Q&A <lab>", "???", "Rope!", "O'Brien"):
        assert name in saved.text
    pack = (await table.bot.services.store.chats.get(table.group.id)).pack
    assert pack is not None
    names = [pack.label(card) for card in pack.all_cards]
    assert names[:4] == ["Dr: Who", "Dr. Who?", "O'Brien", "Mrs. Peacock-Smith"]
    assert names[4:8] == ["Rope!", "Rope", "???", "Cane: short"]
    game_id = await open_and_start(table)  # 4 players: every card of this pack is in play
    game = await state(table, game_id)
    card = {pack.label(c): c for c in game.deck}
    typed = [  # (who, whom, as typed, the cards meant)
        (table.bob, "carol", "Dr: Who; Rope!; St. Paul's", ("Dr: Who", "Rope!", "St. Paul's")),
        (table.bob, "dave", "dr. who?; rope; Q&A <lab>", ("Dr. Who?", "Rope", "Q&A <lab>")),
        (table.carol, "bob", "O'Brien; ???; cafe", ("O'Brien", "???", "Café")),
        (
            table.carol,
            "dave",
            "o’brien; Cane: short; mr x's den",
            ("O'Brien", "Cane: short", "Mr. X's den"),
        ),
        (
            table.dave,
            "bob",
            "Mrs. Peacock-Smith; ROPE!; 221b",
            ("Mrs. Peacock-Smith", "Rope!", "221B"),
        ),
        (
            table.dave,
            "carol",
            "mrs peacock smith, rope, room 101",
            ("Mrs. Peacock-Smith", "Rope", "Room 101"),
        ),
    ]
    for who, whom, text, _ in typed:
        await table.bot.say(who, table.group, f"/suggest @{whom} {text}")
    made = (await state(table, game_id)).suggestions
    assert [s.cards for s in made] == [tuple(card[n] for n in meant) for *_, meant in typed]
    posts = [m for m in bot_messages(table.group) if m.text.startswith("Suggestion")]
    assert [post.bold[1:] for post in posts] == [list(meant) for *_, meant in typed]
