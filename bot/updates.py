"""Updates handled concurrently across chats and people, in arrival order within each.

python-telegram-bot hands every update to `process_update` as it arrives. Updates that
share a key (a group chat, or one person's private chat and button presses) wait for the
one before them; updates of different keys run side by side, at most
`max_concurrent_updates` at a time. Waiting for a key's turn happens before a slot of the
bound is taken, so a flood in one chat never fills the slots other chats need. A game's
moves come from its group (suggestions, admin commands) and from its players' private
chats (answers, composer sends); the store serialises writes per game, so per-chat and
per-person order is what the processor keeps.

`admit` (the flood gate, `bot/flood.py`) runs before each update and may drop it; `handled`
runs after an update was handled, to count it by what it turned out to be. Each update
handled gets its `UpdateFlags`: the gate sets them, the update's context carries them
(`context.flags`, bot/context.py) to the handlers, and `handled` reads them back.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from telegram import Update
from telegram.constants import ChatType
from telegram.ext import BaseUpdateProcessor

from bot.observe import Observer, note_failure, note_refusal

Admit = Callable[[object], Awaitable[bool]]
Handled = Callable[[object], Awaitable[None]]

# Answers that confirm a change outside a game command (a chat's settings, language or pack,
# a person's reminders): the update was an accepted action, as a game command is.
ACCEPTING_ANSWERS = frozenset(
    {
        "settings.defaults_saved",
        "language.set",
        "pack.saved",
        "pack.classic",
        "reminders.on",
        "reminders.off",
    }
)


@dataclass
class UpdateFlags:
    """How one update's replies are to be given (bot/flood.py): set by the flood gate before
    its handlers run, carried to them on the update's context, read back after."""

    accepted: bool = False  # it changed a game or a setting (never counted as flood)
    quiet: bool = False  # its person is in a flood cooldown: no replies unless accepted
    # The cooldown (seconds) that this update starts if it turns out not to be accepted
    # (its person is one short of their limit); 0 when it starts none.
    cooldown_ahead: float = 0.0
    noticed: bool = False  # the flood notice was given as this press's toast
    flood_at: float | None = None  # the flood guard's moment for this update

    def answered(self, key: str) -> None:
        """An answer with this catalog key was given: one confirming a saved setting makes
        the update an accepted action."""
        if key in ACCEPTING_ANSWERS:
            self.accepted = True

    @property
    def held_back(self) -> bool:
        """Replies to this update are held back: a flood cooldown, or the last one before it."""
        return not self.accepted and (self.quiet or self.cooldown_ahead > 0)


def update_key(update: object) -> str:
    """Whose order an update belongs to: its group chat, else the person, else its chat."""
    if not isinstance(update, Update):
        return "other"
    if update.callback_query is not None:
        return f"user:{update.callback_query.from_user.id}"
    chat = update.effective_chat
    if chat is not None and chat.type != ChatType.PRIVATE:
        return f"chat:{chat.id}"
    user = update.effective_user
    if user is not None:
        return f"user:{user.id}"
    return f"chat:{chat.id}" if chat is not None else "other"


class KeyedUpdateProcessor(BaseUpdateProcessor):
    """Concurrent across keys, in order within a key; `admit` may drop an update unhandled,
    `handled` hears of each update handled to its end.

    `process_update` returns once the update was handled (or dropped), so a caller that
    confirms offsets after it never confirms an update still being handled.
    """

    def __init__(
        self,
        max_concurrent_updates: int,
        *,
        key: Callable[[object], str] = update_key,
        admit: Admit | None = None,
        handled: Handled | None = None,
    ) -> None:
        super().__init__(max_concurrent_updates)
        self.key = key
        self.admit = admit
        self.handled = handled
        self.observer = Observer()  # the log line and metrics of each update (bot/observe.py)
        self._flags: dict[int, UpdateFlags] = {}  # by id() of each update being handled
        self._tails: dict[str, asyncio.Future[None]] = {}
        self.waiting = 0  # updates accepted and not yet finished (in their turn or waiting)

    async def process_update(  # type: ignore[misc]  # PTB marks process_update @final
        self, update: object, coroutine: Awaitable[Any]
    ) -> None:
        """Wait for the key's turn, then for a slot (an override of a final method)."""
        key = self.key(update)
        before = self._tails.get(key)
        mine: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._tails[key] = mine  # taken synchronously: arrival order is the order of calls
        self.waiting += 1
        try:
            if before is not None:
                await asyncio.shield(before)
            await super().process_update(update, coroutine)
        finally:
            self.waiting -= 1
            mine.set_result(None)
            if self._tails.get(key) is mine:
                del self._tails[key]
            _close(coroutine)  # never started if cancelled while waiting: no warning

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        """Handle the update to its end (or drop it when `admit` says no)."""
        handling = self.observer.begin(update)
        self._flags[id(update)] = UpdateFlags()
        try:
            if self.admit is not None and not await self.admit(update):
                note_refusal("flood")
                _close(coroutine)
                return
            await coroutine
            if self.handled is not None:
                await self.handled(update)
        except BaseException:
            note_failure()
            raise
        finally:
            del self._flags[id(update)]
            self.observer.end(handling)

    def flags_of(self, update: object) -> UpdateFlags:
        """The flags of an update being handled (its context's, bot/context.py); fresh ones
        for an update this processor is not handling."""
        found = self._flags.get(id(update))
        return found if found is not None else UpdateFlags()

    async def initialize(self) -> None:
        """Nothing to set up."""

    async def shutdown(self) -> None:
        """Nothing to release: updates still running finish in their own tasks."""

    @property
    def busy_keys(self) -> int:
        """Keys with an update being handled or waiting."""
        return len(self._tails)


def _close(coroutine: Awaitable[Any]) -> None:
    if inspect.iscoroutine(coroutine) and inspect.getcoroutinestate(coroutine) == "CORO_CREATED":
        coroutine.close()
