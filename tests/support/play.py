"""Steps of a game as people take them in Telegram, for end-to-end tests."""

from __future__ import annotations

from engine.cards import CATEGORY_ORDER
from engine.state import Game
from fakebot import FakeMessage, FakeUser
from locales import t
from simulation.moves import card_name as card_name
from simulation.moves import naming as naming
from tests.support.harness import Party, bot_messages

# A chat's own pack as an admin types it.
PACK = """/pack
Suspects: Holmes, Watson, Moriarty, Adler, Lestrade
Weapons: Pistol, Cane, Pipe, Violin, Rope
Places: Baker Street, Reichenbach, Yard, Opium den, Museum, Docks, Club, Tower"""


async def open_and_start(
    table: Party,
    *,
    started: list[FakeUser] | None = None,
    join_text: str = "Join",
    start_text: str = "Start the game",
) -> int:
    """Everyone (or `started`) opens a private chat; alice opens a lobby, all join, she starts."""
    for person in table.players if started is None else started:
        person.start_bot()
    await table.bot.settle()
    await table.bot.say(table.alice, table.group, "/newgame")
    lobby = lobby_post(table)
    for person in (table.bob, table.carol, table.dave):
        await table.bot.press(person, lobby, join_text)
    await table.bot.press(table.alice, lobby_post(table), start_text)
    ref = await table.bot.services.store.game_for_chat(table.group.id, 0)
    assert ref is not None
    return ref.id


def lobby_post(table: Party) -> FakeMessage:
    """The lobby's post: the bot's first message with buttons in the group."""
    return next(m for m in bot_messages(table.group) if m.buttons)


async def state(table: Party, game_id: int) -> Game:
    return await table.bot.services.store.load(game_id)


def user_of(table: Party, user_id: int) -> FakeUser:
    return next(p for p in table.players if p.id == user_id)


def all_card_names(game: Game) -> dict[str, str]:
    return {card_name(c): c for category in CATEGORY_ORDER for c in game.in_play(category)}


async def compose_suggestion(
    table: Party, who: FakeUser, target: FakeUser, cards: tuple[str, str, str]
) -> None:
    """The private composer: /suggest, then target, suspect, weapon, place, send."""
    await table.bot.say(who, None, "/suggest")
    composer = who.private_messages()[-1]
    await table.bot.press(who, composer, target.first_name)
    for card in cards:
        composer = _message(who, composer.message_id)
        await table.bot.press(who, composer, card_name(card))
    composer = _message(who, composer.message_id)
    await table.bot.press(who, composer, "Send the suggestion")


async def compose_accusation(
    table: Party, who: FakeUser, cards: tuple[str, ...], lang: str = "en"
) -> None:
    """The private composer: /accuse, then each card, then confirm (buttons in `lang`)."""
    await table.bot.say(who, None, "/accuse")
    composer = who.private_messages()[-1]
    for card in cards:
        await table.bot.press(who, composer, card_name(card, lang))
        composer = _message(who, composer.message_id)
    await table.bot.press(who, composer, t(lang, "button.confirm_accusation"))


def _message(who: FakeUser, message_id: int) -> FakeMessage:
    return next(m for m in who.private_messages() if m.message_id == message_id)
