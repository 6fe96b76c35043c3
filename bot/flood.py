"""Per-person limits: a member who floods a chat gets one notice, then is ignored a while.

Counted per person per chat: commands and button presses. More than the chat's limit
within the window (or, in a group, more than the sustained limit within the long window)
earns one short notice (a toast for a press; for a command, a private
message if the bot can write to the person, else one reply in the chat) and a cooldown
during which that person's commands and presses in that chat are dropped before any
handler runs: no database write, no API call, nothing queued in the chat's outbox, so the
game's own posts are never queued behind replies to a flood. Groups have a tighter limit
than a private chat, where composing a suggestion takes a handful of presses.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any

from telegram import Update
from telegram.constants import ChatType, MessageEntityType

if TYPE_CHECKING:
    from bot.context import App
from bot.delivery.payload import Span, User

SWEEP_EVERY = 1000


class Verdict(Enum):
    HANDLE = "handle"
    NOTICE = "notice"  # the limit was just crossed: tell the person once, drop the update
    IGNORE = "ignore"


@dataclass(frozen=True)
class Limits:
    """`group`/`private` actions per `window` (a burst), and in a group also `sustained`
    per `long_window` (a slow, steady flood), before a `cooldown`; seconds."""

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

    def check(self, chat_id: int, user_id: int, *, private: bool) -> Verdict:
        now = self.clock()
        self._checks += 1
        if self._checks % SWEEP_EVERY == 0:
            self._sweep(now)
        key = (chat_id, user_id)
        if self._quiet_until.get(key, 0.0) > now:
            return Verdict.IGNORE
        limits = self.limits
        recent = self._recent.setdefault(key, deque())
        while recent and recent[0] <= now - max(limits.window, limits.long_window):
            recent.popleft()
        recent.append(now)
        burst = sum(1 for moment in recent if moment > now - limits.window)
        if private and burst <= limits.private:
            return Verdict.HANDLE
        if not private and burst <= limits.group and len(recent) <= limits.sustained:
            return Verdict.HANDLE
        recent.clear()
        self._quiet_until[key] = now + self.limits.cooldown
        return Verdict.NOTICE

    def _sweep(self, now: float) -> None:
        """Forget people who went quiet, so the maps stay as small as the active crowd."""
        horizon = now - max(self.limits.window, self.limits.long_window)
        for key in [k for k, r in self._recent.items() if not r or r[-1] <= horizon]:
            del self._recent[key]
        for key in [k for k, until in self._quiet_until.items() if until <= now]:
            del self._quiet_until[key]


def counted(update: object) -> tuple[int, int, bool] | None:
    """(chat, person, private) of a command or a button press; None for anything else."""
    if not isinstance(update, Update):
        return None
    query = update.callback_query
    if query is not None:
        chat = query.message.chat if query.message is not None else None
        chat_id = chat.id if chat is not None else query.from_user.id
        private = chat is None or chat.type == ChatType.PRIVATE
        return chat_id, query.from_user.id, private
    message = update.message
    if message is None or message.from_user is None or not _is_command(message.entities):
        return None
    return message.chat.id, message.from_user.id, message.chat.type == ChatType.PRIVATE


def _is_command(entities: Any) -> bool:
    return any(e.type == MessageEntityType.BOT_COMMAND and e.offset == 0 for e in entities)


class FloodGate:
    """The update processor's `admit`: handle, or drop (after one notice)."""

    def __init__(self, application: App, guard: FloodGuard) -> None:
        self.application = application
        self.guard = guard

    async def __call__(self, update: object) -> bool:
        found = counted(update)
        if found is None:
            return True
        chat_id, user_id, private = found
        verdict = self.guard.check(chat_id, user_id, private=private)
        if verdict is Verdict.NOTICE:
            assert isinstance(update, Update)
            await self._notice(update, chat_id, user_id)
        return verdict is Verdict.HANDLE

    async def _notice(self, update: Update, chat_id: int, user_id: int) -> None:
        from bot.context import CustomContext
        from bot.handlers.common import answer_toast, where

        context = CustomContext.from_update(update, self.application)
        quiet: dict[str, Any] = {"quiet": Span(self.guard.limits.cooldown)}
        if update.callback_query is not None:
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


@dataclass
class _Reply:
    key: str
    said: tuple[str, str]
    until: float


class RepeatedRefusals:
    """A person's refusals in one group thread edit one reply while it is recent.

    The first refusal is a reply to the person's command; later ones within `seconds`
    edit that reply (nothing at all when they say the same), so repeated refusals never
    become new posts in the thread. `seconds` 0 turns this off.
    """

    def __init__(self, seconds: float = 120.0, clock: Callable[[], float] = time.monotonic):
        self.seconds = seconds
        self.clock = clock
        self._replies: dict[tuple[int, int, int], _Reply] = {}

    def earlier(self, place: tuple[int, int, int]) -> _Reply | None:
        """The reply to edit for (chat, topic, person), if there is a recent one."""
        reply = self._replies.get(place)
        if reply is None or reply.until <= self.clock():
            return None
        return reply

    def posted(self, place: tuple[int, int, int], key: str, said: tuple[str, str]) -> None:
        if self.seconds <= 0:
            return
        now = self.clock()
        if len(self._replies) >= SWEEP_EVERY:
            self._replies = {p: r for p, r in self._replies.items() if r.until > now}
        self._replies[place] = _Reply(key, said, now + self.seconds)
