"""One whole game of each format in each language, through the fake Bot API: every message
of a game in another language than English is in that language (no English word of the
English catalog, card names included, unless that language's catalog uses the word too);
and the Slavic plurals a reader sees are right for 1, 2, 5, 11, 21 and 22."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

from engine.cards import Category
from engine.state import Game, Phase
from fakebot import FakeMessage, FakeUser
from locales import DEFAULT_LANGUAGE, LANGUAGES, catalog, t
from locales.formats import plural_category
from tests.support.catalogs import WORD, english_words, literal
from tests.support.harness import Party, bot_messages
from tests.support.liars_play import LiarsPlayer
from tests.support.play import card_name, open_and_start, state
from tests.support.table_play import TablePlayer, fix_seed, open_classic

pytestmark = pytest.mark.slow
FORMATS = ("forum", "classic", "y2023", "liars")
SEEDS = {"classic": 12, "y2023": 6, "liars": 21}
TURNS = 6  # played before the current player accuses


def leaked(message: FakeMessage, language: str, people: list[FakeUser]) -> list[str]:
    """English words in a message of `language` (tests.support.catalogs.english_words);
    @usernames, commands, links, typed values (<code>) and people's names aside."""
    text = re.sub(r"<code>.*?</code>|[@/]\w+|https?://\S+", " ", message.html or message.text)
    text = re.sub(r"<[^>]*>", " ", text)
    names = {w.casefold() for p in people for w in WORD.findall(p.first_name)}
    return english_words(text, language, frozenset(names | {"cluedo", "club"}))


async def _forum(table: Party, lang: str) -> None:
    """A suggestion typed with card names in the chat's language, answered by button, then
    the right accusation composed in private; the window closes a day later."""
    game_id = await open_and_start(
        table, join_text=t(lang, "button.join"), start_text=t(lang, "button.start")
    )
    game = await state(table, game_id)
    carol = game.player_of(table.carol.id)
    assert carol is not None and game.envelope is not None
    held = carol.hand[0]
    cards = []
    for category in (Category.SUSPECT, Category.WEAPON, Category.PLACE):
        if game.pack.category_of(held) is category:
            cards.append(held)
        else:
            cards.append(next(c for c in game.in_play(category) if c not in carol.hand))
    typed = "; ".join(card_name(c, lang).lower() for c in cards)
    await table.bot.say(table.bob, table.group, f"/suggest @carol {typed}")
    prompt = await table.carol.wait_private(lambda m: bool(m.buttons))
    await table.bot.press(table.carol, prompt, card_name(held, lang))
    assert any(card_name(held, lang) in m.text for m in table.bob.private_messages())
    await table.bot.say(table.bob, None, "/accuse")
    composer = table.bob.private_messages()[-1]
    for card in game.envelope:
        await table.bot.press(table.bob, composer, card_name(card, lang))
        composer = next(
            m for m in table.bob.private_messages() if m.message_id == composer.message_id
        )
    await table.bot.press(table.bob, composer, t(lang, "button.confirm_accusation"))
    await table.bot.advance(timedelta(hours=24, seconds=1))
    assert (await state(table, game_id)).phase is Phase.ENDED


async def _at_the_table(table: Party, lang: str, edition: str) -> Game:
    """A table game by buttons: a few turns, then, once the current player may accuse, the
    right accusation."""
    people = [table.alice, table.bob, table.carol]
    fix_seed(table, SEEDS[edition])
    word = {"classic": "classic", "y2023": "2023", "liars": "liars"}[edition]
    game_id = await open_classic(table, people, words=f"/newgame {word}")
    kind = LiarsPlayer if edition == "liars" else TablePlayer
    player = kind(table, game_id, people, lang=lang)
    for turn in range(60):
        game = await player.game()
        assert game.table is not None and game.envelope is not None
        if game.phase is Phase.ENDED:
            break
        role = game.players[game.table.current].role
        if (
            turn >= TURNS
            and game.table.step.value == "roll"
            and (edition == "classic" or isinstance(game.table.place_of(role), str))
        ):
            who = await player.current()
            if edition == "y2023":  # the 2023 edition: an accusation comes after the move
                await player.roll_and_stay(who)
            await player.accuse(who, game.envelope)
            continue
        await player.turn()
    game = await player.game()
    assert game.phase is Phase.ENDED and game.winner is not None
    return game


@pytest.mark.parametrize("edition", FORMATS)
@pytest.mark.parametrize("lang", LANGUAGES)
async def test_a_whole_game_in_every_language(table: Party, lang: str, edition: str) -> None:
    for person in table.players:
        person.language_code = lang
    if lang != DEFAULT_LANGUAGE:
        await table.bot.say(table.alice, table.group, f"/language {lang}")
    if edition == "forum":
        await _forum(table, lang)
    else:
        game = await _at_the_table(table, lang, edition)
        achievements = literal(lang, "achievements.post")  # the post after the end's
        last = [m.text for m in bot_messages(table.group) if not m.text.startswith(achievements)][
            -1
        ]
        assert all(card_name(c, lang) in last for c in game.envelope or ())
    await table.bot.say(table.bob, table.group, "/rules")
    everything = bot_messages(table.group) + [
        m for person in table.players for m in person.private_messages()
    ]
    assert len(everything) > 15
    if lang == DEFAULT_LANGUAGE:
        return
    wrong = [(words, m.text[:200]) for m in everything if (words := leaked(m, lang, table.players))]
    assert wrong == []


@pytest.mark.parametrize("lang", ["ru", "uk", "be"])
@pytest.mark.parametrize("count", [1, 2, 5, 11, 21, 22])
async def test_slavic_reminders_count_as_a_reader_expects(
    table: Party, lang: str, count: int
) -> None:
    """The reminder before a day ends says how many suggestions are left today: the form of
    CLDR's category for the count (1 and 21 one, 2 and 22 few, 5 and 11 many)."""
    for person in table.players:
        person.language_code = lang
    await table.bot.say(table.alice, table.group, f"/language {lang}")
    await table.bot.say(table.alice, table.group, f"/settings suggestions_per_day {count}")
    await open_and_start(
        table, join_text=t(lang, "button.join"), start_text=t(lang, "button.start")
    )
    await table.bot.advance(timedelta(hours=22, minutes=30))  # the reminder comes 1 h before
    form = {1: "one", 2: "few", 5: "many", 11: "many", 21: "one", 22: "few"}[count]
    assert plural_category(lang, count) == form
    entry = catalog(lang)["dm.reminder_left"]
    expected = entry[form].format(count=count)
    for person in table.players:
        assert any(expected in m.text for m in person.private_messages()), person.first_name
