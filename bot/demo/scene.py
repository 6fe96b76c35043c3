"""The demo's people acting through the fake Bot API, as a person would in Telegram:
typing in the group or in their private chat, pressing a button they see; each act printed,
then the bot let settle, then what it answered printed."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot import callbacks as cb
from bot.demo.cast import Seat
from bot.demo.stage import Stage
from bot.demo.transcript import Transcript
from engine.events import Event
from engine.state import Game
from fakebot import FakeGroup, FakeMessage, FakeUser
from locales import t

Wanted = Callable[[cb.Callback], bool]


@dataclass(frozen=True)
class Found:
    """A button a person sees: its message, its text and its data."""

    message: FakeMessage
    text: str
    data: str


@dataclass
class Scene:
    """The stage, the printed transcript, the group and the people (in seat order of
    arrival, `seats[i]` for `people[i]`); `game_id` once the lobby is open."""

    stage: Stage
    transcript: Transcript
    group: FakeGroup
    people: list[FakeUser]
    seats: list[Seat]
    language: str
    game_id: int = 0
    known: tuple[Game, list[Event]] | None = None  # the last state read, and its log

    def person(self, user_id: int) -> FakeUser:
        return next(p for p in self.people if p.id == user_id)

    def seat_of(self, person: FakeUser) -> Seat:
        return self.seats[self.people.index(person)]

    def label(self, key: str, **values: object) -> str:
        """A text of the bot's catalogs in the game's language (a button's, a card's)."""
        return t(self.language, key, **values)

    def card(self, card: str) -> str:
        return self.label(f"card.{card}")

    async def game(self) -> Game:
        return await self.stage.services.store.load(self.game_id)

    async def moment(self) -> tuple[Game, list[Event]]:
        """The game's state and whole log (the log read again only when the state is new:
        the store hands out the same state object while the game is unchanged)."""
        game = await self.game()
        if self.known is None or self.known[0] is not game:
            self.known = game, await self.stage.services.store.events(self.game_id)
        return self.known

    # -- acts --------------------------------------------------------------------------------
    async def say(self, person: FakeUser, text: str) -> None:
        """`person` posts `text` in the group."""
        await self.transcript.typed(person.id, self.group.id, text)
        person.send(self.group, text)
        await self.stage.settle()
        await self.transcript.flush()

    async def write(self, person: FakeUser, text: str) -> None:
        """`person` writes `text` to the bot in private."""
        await self.transcript.typed(person.id, person.id, text)
        person.send_private(text)
        await self.stage.settle()
        await self.transcript.flush()

    async def open_private_chat(self, person: FakeUser) -> None:
        """`person` opens the bot's private chat and presses Start."""
        await self.transcript.typed(person.id, person.id, "/start")
        person.start_bot()
        await self.stage.settle()
        await self.transcript.flush()

    async def press(self, person: FakeUser, found: Found) -> None:
        """`person` presses the button `found`."""
        await self.transcript.pressed(person.id, found.message.chat.id, found.text)
        await person.press(found.message, callback_data=found.data)
        await self.stage.settle()
        await self.transcript.flush()

    # -- what people see ---------------------------------------------------------------------
    def private_button(self, person: FakeUser, wanted: Wanted) -> Found | None:
        """The newest button in `person`'s private chat whose data is `wanted`."""
        return newest_button(person.private_messages(), wanted)

    def group_button(self, wanted: Wanted) -> Found | None:
        """The newest button of the bot's in the group whose data is `wanted`."""
        mine = [m for m in self.group.messages(service=False) if m.is_from_bot]
        return newest_button(mine, wanted)

    def group_buttons(self, wanted: Wanted) -> list[Found]:
        """Every button whose data is `wanted` on the newest bot post in the group that has
        one."""
        mine = [m for m in self.group.messages(service=False) if m.is_from_bot]
        for message in reversed(mine):
            found = buttons_of(message, wanted)
            if found:
                return found
        return []

    def button_in(self, message: FakeMessage, wanted: Wanted) -> Found | None:
        """A button of `message` as it is now (edits applied) whose data is `wanted`."""
        current = message.chat.message(message.message_id)
        return newest_button([current] if current is not None else [], wanted)


def newest_button(messages: list[FakeMessage], wanted: Wanted) -> Found | None:
    """The first button, newest message first, whose parsed data is `wanted`."""
    for message in reversed(messages):
        found = buttons_of(message, wanted)
        if found:
            return found[0]
    return None


def buttons_of(message: FakeMessage, wanted: Wanted) -> list[Found]:
    """The buttons of `message` whose parsed data is `wanted`, in order."""
    found = []
    for row in message.buttons:
        for text, data in row:
            parsed = cb.parse(data)
            if data is not None and parsed is not None and wanted(parsed):
                found.append(Found(message, text, data))
    return found
