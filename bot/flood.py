"""Per-person limits: a member who floods a chat gets one notice, then is not answered a while.

What counts is what floods, never a fair player's game. Each command and button press of a
person in a chat is handled, and counted only afterwards, by what it turned out to be:

- an **accepted action** (the engine took a game command that changed the game: a join, a
  start, a suggestion, an answer, a move, a setting; or an admin's chat setting, language
  or pack was saved; its context marks it, `context.flags`) is never counted and never dropped;
- anything else (a refusal, a read-only command such as /status, /rules, /help, /log or
  /hand, a composer step, a press that changes nothing) counts towards the limit.

More than the chat's limit of counted updates within the window (or, in a group, more
than the sustained limit within the long window) earns one short notice (a toast for a
press; for a command, a private message if the bot can write to the person, else one reply
in the chat) and a cooldown. The update that crosses the limit gives the notice instead of
its own reply: the gate tells the handlers beforehand, on the update's flags
(`context.flags.cooldown_ahead`, bot/updates.py), that the person is one short of their
limit, so their reply is held back unless the update turns out to be an accepted action.

During the cooldown, that person's read-only and unknown commands in that chat are
dropped before any handler runs (no database work, no API call, nothing queued), and a
press with data none of our buttons carries is answered with no text and dropped. Their
game actions (the commands that can change a game or a setting, and presses on the bot's
buttons) still go to the engine: an accepted one is played and answered as ever; a refused
one, or one that changes nothing, earns no reply (a press is answered with no text, so the
spinner stops) and is not counted again. So the game's own posts are never queued behind
replies to a flood, and no fair move is lost. Groups have a tighter limit than a private
chat, where composing a suggestion takes a handful of counted presses.

A person's repeated refusals in a group thread edit one reply (`bot.refusals`).
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any

from telegram import Update
from telegram.constants import ChatType, MessageEntityType

from bot import callbacks as cb
from bot.context import App, CustomContext
from bot.handlers.common import answer_empty, answer_toast, where
from bot.observe import note_refusal
from bot.payload import Span, User
from bot.updates import KeyedUpdateProcessor, UpdateFlags

SWEEP_EVERY = 1000
# The commands that can change a game or a setting: let through to the engine even during
# a cooldown (a refused one then earns no reply). Any other command is read-only or unknown.
ACTION_COMMANDS = frozenset(
    {
        "newgame",
        "startgame",
        "join",
        "leave",
        "suggest",
        "accuse",
        "settings",
        "pause",
        "resume",
        "extend",
        "void",
        "remove",
        "replace",
        "endgame",
        "language",
        "pack",
        "reminders",
    }
)


class Verdict(Enum):
    HANDLE = "handle"
    NOTICE = "notice"  # the limit was just crossed: tell the person once
    IGNORE = "ignore"


class Standing(Enum):
    """A person's standing in a chat before their next update is handled."""

    FREE = "free"
    BRINK = "brink"  # one more counted update crosses the limit
    QUIET = "quiet"  # in a cooldown


@dataclass(frozen=True)
class Limits:
    """`group`/`private` counted updates per `window` (a burst), and in a group also
    `sustained` per `long_window` (a slow, steady flood), before a `cooldown`; seconds."""

    group: int = 5
    private: int = 30
    window: float = 20.0
    sustained: int = 20
    long_window: float = 600.0
    cooldown: float = 300.0


class FloodGuard:
    """Sliding-window counts per (chat, person); pure bookkeeping with an injectable clock."""

    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self.clock = clock
        self._recent: dict[tuple[int, int], deque[float]] = {}
        self._quiet_until: dict[tuple[int, int], float] = {}
        self._checks = 0

    def standing(
        self, chat_id: int, user_id: int, *, private: bool, now: float | None = None
    ) -> Standing:
        """Free, one short of the limit, or in a cooldown (nothing is counted)."""
        moment = self.clock() if now is None else now
        key = (chat_id, user_id)
        if self._quiet_until.get(key, 0.0) > moment:
            return Standing.QUIET
        recent = self._recent.get(key)
        if recent is None:
            return Standing.FREE
        self._forget_old(recent, moment)
        return Standing.BRINK if self._over(recent, moment, private, extra=1) else Standing.FREE

    def count(
        self, chat_id: int, user_id: int, *, private: bool, now: float | None = None
    ) -> Verdict:
        """Count one update that was not an accepted action: NOTICE when it crosses the
        limit (the cooldown starts), IGNORE during a cooldown, else HANDLE."""
        moment = self.clock() if now is None else now
        self._checks += 1
        if self._checks % SWEEP_EVERY == 0:
            self._sweep(moment)
        key = (chat_id, user_id)
        if self._quiet_until.get(key, 0.0) > moment:
            return Verdict.IGNORE
        recent = self._recent.setdefault(key, deque())
        self._forget_old(recent, moment)
        recent.append(moment)
        if not self._over(recent, moment, private, extra=0):
            return Verdict.HANDLE
        recent.clear()
        self._quiet_until[key] = moment + self.limits.cooldown
        return Verdict.NOTICE

    def _forget_old(self, recent: deque[float], now: float) -> None:
        limits = self.limits
        while recent and recent[0] <= now - max(limits.window, limits.long_window):
            recent.popleft()

    def _over(self, recent: deque[float], now: float, private: bool, *, extra: int) -> bool:
        """Whether `recent` (with `extra` more at `now`) is over the limit."""
        limits = self.limits
        burst = sum(1 for moment in recent if moment > now - limits.window) + extra
        if private:
            return burst > limits.private
        return burst > limits.group or len(recent) + extra > limits.sustained

    def _sweep(self, now: float) -> None:
        """Forget people who went quiet, so the maps stay as small as the active crowd."""
        horizon = now - max(self.limits.window, self.limits.long_window)
        for key in [k for k, r in self._recent.items() if not r or r[-1] <= horizon]:
            del self._recent[key]
        for key in [k for k, until in self._quiet_until.items() if until <= now]:
            del self._quiet_until[key]


def counted(update: object) -> tuple[int, int, bool] | None:
    """(chat, person, private) of a command (an edited one too: it is answered, never run)
    or a button press; None for anything else."""
    if not isinstance(update, Update):
        return None
    query = update.callback_query
    if query is not None:
        chat = query.message.chat if query.message is not None else None
        chat_id = chat.id if chat is not None else query.from_user.id
        private = chat is None or chat.type == ChatType.PRIVATE
        return chat_id, query.from_user.id, private
    message = update.message or update.edited_message
    if message is None or message.from_user is None or not _is_command(message.entities):
        return None
    return message.chat.id, message.from_user.id, message.chat.type == ChatType.PRIVATE


def may_act(update: Update) -> bool:
    """Whether the update may be a game action: a press on one of our buttons, or one of
    the commands that can change a game or a setting (by its name, before handling)."""
    query = update.callback_query
    if query is not None:
        return cb.parse(query.data) is not None
    message = update.message
    if message is None or not message.text or not message.entities:
        return False
    first = message.entities[0]
    name = message.text[1 : first.length].partition("@")[0].lower()
    return name in ACTION_COMMANDS


def _is_command(entities: Any) -> bool:
    return any(e.type == MessageEntityType.BOT_COMMAND and e.offset == 0 for e in entities)


class FloodGate:
    """The update processor's `admit` (before handling) and `handled` (after it)."""

    def __init__(self, application: App, guard: FloodGuard) -> None:
        self.application = application
        self.guard = guard

    async def __call__(self, update: object) -> bool:
        """Handle the update (marking it quiet or on the brink), or drop it in a cooldown."""
        found = counted(update)
        flags = self._flags(update)
        if found is None or flags is None:
            return True
        assert isinstance(update, Update)
        chat_id, user_id, private = found
        now = self.guard.clock()
        flags.flood_at = now
        standing = self.guard.standing(chat_id, user_id, private=private, now=now)
        if standing is Standing.QUIET:
            if not may_act(update):
                await answer_empty(update)
                return False
            flags.quiet = True
        elif standing is Standing.BRINK:
            flags.cooldown_ahead = self.guard.limits.cooldown
        return True

    async def handled(self, update: object) -> None:
        """Count the update unless it was an accepted action; one notice when it crosses."""
        found = counted(update)
        flags = self._flags(update)
        if found is None or flags is None or flags.accepted or flags.quiet:
            return
        assert isinstance(update, Update)
        chat_id, user_id, private = found
        verdict = self.guard.count(chat_id, user_id, private=private, now=flags.flood_at)
        if verdict is not Verdict.NOTICE:
            return
        note_refusal("flood")  # its reply (unless a refusal's) gave way to the notice
        if not flags.noticed:
            await self._notice(update, chat_id, user_id)

    def _flags(self, update: object) -> UpdateFlags | None:
        """The flags of the update being handled: the ones its context carries."""
        processor = self.application.update_processor
        if not isinstance(processor, KeyedUpdateProcessor):
            return None
        return processor.flags_of(update)

    async def _notice(self, update: Update, chat_id: int, user_id: int) -> None:
        context = CustomContext.from_update(update, self.application)  # this update's flags
        context.flags.noticed = True
        quiet: dict[str, Any] = {"quiet": Span(self.guard.limits.cooldown)}
        if update.callback_query is not None:
            # Not told on the brink (another update of theirs came between): the toast, if
            # the handler has not answered the press yet.
            await answer_toast(context, update, "flood.toast", quiet, alert=True)
            return
        w = where(update)
        if w is None:
            return
        svc = context.services
        key = f"flood:{chat_id}:{user_id}:{update.update_id}"
        args = {"person": User(user_id), **quiet}
        if not w.private and await svc.directory.dm_ok(user_id):
            args = {**quiet, "chat": w.chat.title or ""}
            await svc.tell(user_id, "flood.notice_dm", args, user_id=user_id, key=key)
            return
        reply_to = w.message.message_id if w.message is not None else None
        msg = "flood.notice_private" if w.private else "flood.notice"
        await svc.tell(
            chat_id,
            msg,
            args,
            topic_id=w.topic_id,
            user_id=user_id if w.private else None,
            reply_to_message_id=reply_to,
            key=key,
        )
