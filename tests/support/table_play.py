"""A classic (table) game played through the fake Bot API by pressing the bot's buttons, as
people would: the turn prompt in the current player's private chat, the refuter's card
in private; each turn's card in the group."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from engine.cards import Category
from engine.state import Game, Phase
from engine.table.state import Step
from fakebot import FakeMessage, FakeUser
from locales import t
from tests.support.harness import Party, bot_messages
from tests.support.play import lobby_post, state


def fix_seed(table: Party, seed: int) -> None:
    """Every next /newgame's seed (deal, envelope, dice): a scripted game."""
    table.bot.seed = seed  # the bot's seed source (tests/support/harness.py) gives it


async def open_classic(
    table: Party, people: list[FakeUser], *, words: str = "/newgame classic"
) -> int:
    """The first person opens a classic lobby, the others join, the first starts."""
    for person in people:
        person.start_bot()
    await table.bot.settle()
    await table.bot.say(people[0], table.group, words)
    lobby = lobby_post(table)
    join = lobby.buttons[0][0][0]
    for person in people[1:]:
        await table.bot.press(person, lobby_post(table), join)
    await table.bot.press(people[0], lobby_post(table), lobby_post(table).buttons[1][0][0])
    ref = await table.bot.services.store.game_for_chat(table.group.id, 0)
    assert ref is not None
    return ref.id


def prompt(table: Party) -> FakeMessage:
    """The turn prompt: the bot's message with buttons of the latest turn (`t:<game>:<turn>:…`)
    in a player's private chat, where the current player plays their turn (a private
    message names its game's chat in its first line: this table's)."""
    found = [
        (turn, m.message_id, m)
        for person in table.server.world.users.values()
        for m in person.private_messages()
        if (turn := prompt_turn(m)) is not None and table.group.title in m.text.split("\n")[0]
    ]
    assert found, "no turn prompt in any private chat"
    return max(found, key=lambda x: (x[0], x[1]))[2]


def prompt_turn(message: FakeMessage) -> int | None:
    """The turn a message's turn buttons belong to (None: it has none)."""
    for row in message.buttons:
        for _, data in row:
            parts = str(data).split(":")
            if parts[0] == "t" and len(parts) > 3:
                return int(parts[2])
    return None


def card(table: Party, turn: int | None = None) -> FakeMessage:
    """A turn's card in the group (the latest turn's by default)."""
    cards = [m for m in bot_messages(table.group) if card_turn(m) is not None]
    assert cards, "no turn card in the group"
    if turn is None:
        return cards[-1]
    return next(m for m in cards if card_turn(m) == turn)


def told_since(table: Party, before: int) -> list[str]:
    """What the group reads of the posts from number `before` on, and of the turn's card
    (posted earlier, edited since), as it reads now."""
    posts = bot_messages(table.group)
    latest = card(table)
    return [m.text for m in posts[before:] if m is not latest] + [latest.text]


def card_turn(message: FakeMessage) -> int | None:
    """The turn a group post is the card of ("▶️ Turn 5: …", in any language)."""
    found = re.match(r"▶️ \S+ (\d+): ", message.text)
    return int(found.group(1)) if found else None


def button(message: FakeMessage, starts: str) -> str | None:
    """The text of the first button that starts with `starts`."""
    for row in message.buttons:
        for text, _ in row:
            if text.startswith(starts):
                return text
    return None


@dataclass
class Seen:
    """What happened in a played game (for the test's checks)."""

    passages: int = 0
    passed_over: int = 0  # refutations that went past a player who could not refute
    stayed: int = 0  # suggestions made by a player moved in by another's suggestion
    suggestions: int = 0
    shown: list[tuple[int, str]] = field(default_factory=list)  # (suggester, card)


class TablePlayer:
    """Plays the current turn by buttons with a simple policy; `lang` names the buttons."""

    def __init__(self, table: Party, game_id: int, people: list[FakeUser], lang: str = "en"):
        self.table, self.game_id, self.lang = table, game_id, lang
        self.people = {p.id: p for p in people}
        self.seen = Seen()
        self.auto_refute = True  # False: a refuter asked stays silent (their timer runs)

    def label(self, key: str, **args: str) -> str:
        return t(self.lang, key, **args)

    def card(self, card: str) -> str:
        return t(self.lang, f"card.{card}")

    async def game(self) -> Game:
        return await state(self.table, self.game_id)

    async def press(self, who: FakeUser, message: FakeMessage, text: str) -> None:
        await self.table.bot.press(who, message, text)

    async def turn(self) -> None:
        """One whole turn of the current player."""
        game = await self.game()
        assert game.table is not None and game.phase is Phase.RUNNING
        who = self.people[game.players[game.table.current].user]
        message = prompt(self.table)
        if (stay := button(message, self.label("button.stay"))) is not None:
            await self.press(who, message, stay)
            self.seen.stayed += 1
        elif (passage := button(message, "🕳")) is not None:
            await self.press(who, message, passage)
            self.seen.passages += 1
        else:
            await self.press(who, message, self.label("button.roll"))
            message = prompt(self.table)
            game = await self.game()
            if game.table is not None and game.table.step is Step.MOVE:
                choice = button(message, "🚪") or button(message, "➡️")
                assert choice is not None, message.buttons
                await self.press(who, message, choice)
        await self.suggest_if_offered(who)
        game = await self.game()
        if game.table is not None and game.table.pending is not None:
            return  # a refuter is silent: the turn waits for their timer
        if (
            game.running
            and game.table is not None
            and game.players[game.table.current].user == who.id
        ):
            await self.press(who, prompt(self.table), self.label("button.end_turn"))

    async def suggest_if_offered(self, who: FakeUser) -> None:
        message = prompt(self.table)
        if button(message, self.label("button.suggest")) is None:
            return
        game = await self.game()
        assert game.table is not None
        me = game.player_of(who.id)
        assert me is not None
        left = game.players[(me.seat + 1) % len(game.players)]
        after = game.players[(me.seat + 2) % len(game.players)]
        suspects, weapons = game.in_play(Category.SUSPECT), game.in_play(Category.WEAPON)
        suspect = left.role if left.role not in left.hand else _not_in(suspects, left.hand)
        weapon = next(
            (c for c in after.hand if c in weapons and c not in left.hand),
            _not_in(weapons, left.hand),
        )
        await self.press(who, message, self.label("button.suggest"))
        await self.press(who, prompt_by_id(self.table, message), self.card(suspect))
        await self.press(who, prompt_by_id(self.table, message), self.card(weapon))
        self.seen.suggestions += 1
        await self.refute()

    async def refute(self) -> None:
        """Whoever is asked shows their first matching card by its button."""
        game = await self.game()
        table = game.table
        assert table is not None
        made = table.suggestions[-1]
        if made.passed and made.refuter is not None:
            self.seen.passed_over += 1
        pending = table.pending
        if pending is None or pending.refuter is None or not self.auto_refute:
            return
        refuter = self.people.get(game.players[pending.refuter].user)
        if refuter is None:
            return  # a computer detective answers under the game's clock
        ask = [m for m in refuter.private_messages() if m.buttons][-1]
        card = ask.buttons[0][0][0]
        await self.press(refuter, ask, card)
        self.seen.shown.append((game.players[pending.suggester].user, card))

    async def until_a_refuter_is_asked(self, turns: int) -> Game:
        """Play up to `turns` turns until a suggestion waits for a refuter's card."""
        for _ in range(turns):
            await self.turn()
            game = await self.game()
            if game.table is not None and game.table.pending is not None:
                return game
        raise AssertionError(f"no suggestion waited for a refuter in {turns} turns")

    async def current(self) -> FakeUser:
        game = await self.game()
        assert game.table is not None
        return self.people[game.players[game.table.current].user]

    async def roll_and_stay(self, who: FakeUser) -> None:
        """The 2023 edition, a turn begun in a room: the dice, then staying (the move an
        accusation comes after)."""
        await self.press(who, prompt(self.table), self.label("button.roll"))
        await self.press(who, prompt(self.table), self.label("button.stay"))

    async def accuse(self, who: FakeUser, cards: tuple[str, str, str]) -> None:
        """Accuse from the prompt: the composer comes in private."""
        await self.press(who, prompt(self.table), self.label("button.accuse"))
        composer = who.private_messages()[-1]
        for card in cards:
            await self.press(who, composer, self.card(card))
            composer = next(
                m for m in who.private_messages() if m.message_id == composer.message_id
            )
        await self.press(who, composer, self.label("button.confirm_accusation"))


def prompt_by_id(table: Party, message: FakeMessage) -> FakeMessage:
    """The prompt `message` as it reads now (edited in place as the turn goes)."""
    found = message.chat.message(message.message_id)
    assert found is not None
    return found


def _not_in(cards: tuple[str, ...], hand: tuple[str, ...]) -> str:
    return next(c for c in cards if c not in hand)
