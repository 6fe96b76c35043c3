"""The demo's people acting through the fake Bot API, as a person would in Telegram:
typing in the group or in their private chat, pressing a button they see; each act printed,
then the bot let settle, then what it answered printed. A person looking for a button waits
while a message is on its way (asleep on Telegram's limit: bot/demo/stage.py `step`), and
acts when their `Pace` says (at once in the demo; bench/tempo's people take their time)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from bot import callbacks as cb
from bot.demo.cast import Seat
from bot.demo.shown import Shown
from bot.demo.stage import Stage
from bot.demo.transcript import Transcript
from engine.events import Event
from engine.state import Game
from fakebot import CallbackAnswer, FakeGroup, FakeMessage, FakeUser
from locales import t

Wanted = Callable[[cb.Callback], bool]
T = TypeVar("T")
PRESS_WAIT = 600.0  # seconds a press waits for the bot's answer (its toast)


@dataclass(frozen=True)
class Found:
    """A button a person sees: its message, its text and its data."""

    message: FakeMessage
    text: str
    data: str


class Pace:
    """When people act: at once (the demo moves its clock after each move itself)."""

    async def before(self, scene: Scene, person: FakeUser, chat: int, found: Found | None) -> None:
        """Until `person` acts in `chat` (on the button `found`, or typing)."""

    def answered(self, person: FakeUser, found: Found, answer: CallbackAnswer) -> None:
        """The bot answered `person`'s press on `found` (its toast)."""


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
    pace: Pace = field(default_factory=Pace)
    shown: Shown = field(init=False)
    pressing: set[asyncio.Task[None]] = field(default_factory=set)  # presses awaiting answers

    def __post_init__(self) -> None:
        self.shown = Shown(self.stage.server)

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
        await self.pace.before(self, person, self.group.id, None)
        await self.transcript.typed(person.id, self.group.id, text)
        person.send(self.group, text)
        await self.stage.settle()
        await self.transcript.flush()

    async def write(self, person: FakeUser, text: str) -> None:
        """`person` writes `text` to the bot in private."""
        await self.pace.before(self, person, person.id, None)
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
        """`person` presses the button `found` (the bot's answer is not waited for: it may
        wait for its chat's slot)."""
        await self.pace.before(self, person, found.message.chat.id, found)
        await self.transcript.pressed(person.id, found.message.chat.id, found.text)
        task = asyncio.create_task(self._press(person, found))
        self.pressing.add(task)
        task.add_done_callback(self.pressing.discard)
        await self.stage.settle()
        await self.transcript.flush()

    async def _press(self, person: FakeUser, found: Found) -> None:
        answer = await person.press(found.message, callback_data=found.data, timeout=PRESS_WAIT)
        self.pace.answered(person, found, answer)

    async def done(self) -> None:
        """Presses still waiting for an answer are given up (the stage stops)."""
        for task in list(self.pressing):
            task.cancel()
        await asyncio.gather(*self.pressing, return_exceptions=True)

    # -- what people see ---------------------------------------------------------------------
    async def look(self, find: Callable[[], T | None]) -> T | None:
        """What `find` finds, once it is there: while it is not, and a message is on its
        way, the clock moves to when it may go (None: nothing more is coming)."""
        while (found := find()) is None and await self.stage.step():
            pass
        return found

    async def private_button(self, person: FakeUser, wanted: Wanted) -> Found | None:
        """The newest button in `person`'s private chat whose data is `wanted`."""
        return await self.look(lambda: newest_button(person.private_messages(), wanted))

    async def group_button(self, wanted: Wanted) -> Found | None:
        """The newest button of the bot's in the group whose data is `wanted`."""
        return await self.look(lambda: newest_button(self._group_posts(), wanted))

    async def turn_buttons(
        self, person: FakeUser, turn: int, find: Callable[[list[Found]], T | None]
    ) -> T | None:
        """What `find` makes of turn `turn`'s prompt buttons (`turn_offer`), once it finds
        something there."""
        return await self.look(lambda: find(self.turn_offer(person, turn)))

    def turn_offer(self, person: FakeUser, turn: int) -> list[Found]:
        """The buttons of turn `turn`'s prompt (data `t:<game>:<turn>:...`) on the newest
        message with one, in the group or in `person`'s private chat (wherever the bot puts
        the current player's controls)."""

        def prompt(data: cb.Callback) -> bool:
            return (
                data.kind == cb.TURN and data.game == self.game_id and data.args[:1] == (str(turn),)
            )

        candidates = [
            (self.shown.order((m.chat.id, m.message_id)), found)
            for m in [*self._group_posts(), *person.private_messages()]
            if (found := buttons_of(m, prompt))
        ]
        return max(candidates, key=lambda c: c[0])[1] if candidates else []

    def _group_posts(self) -> list[FakeMessage]:
        return [m for m in self.group.messages(service=False) if m.is_from_bot]

    async def button_in(self, message: FakeMessage, wanted: Wanted) -> Found | None:
        """A button of `message` as it is now (edits applied) whose data is `wanted`."""

        def find() -> Found | None:
            current = message.chat.message(message.message_id)
            return newest_button([current] if current is not None else [], wanted)

        return await self.look(find)


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
