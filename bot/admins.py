"""Who is an admin of a chat, from Telegram's admin list, kept for a short while.

One `getChatAdministrators` per chat per expiry answers every "is this person an admin?"
in that chat, so refusing a non-admin costs no API call. A `chat_member` or
`my_chat_member` update for the chat drops its list (someone was promoted, demoted, left).
Concurrent askers in a chat share the one fetch in flight.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

from telegram import Bot
from telegram.constants import ChatMemberStatus
from telegram.error import TelegramError

log = logging.getLogger(__name__)
ADMIN_STATUSES = (ChatMemberStatus.OWNER, ChatMemberStatus.ADMINISTRATOR)


@dataclass(frozen=True)
class _Entry:
    admins: frozenset[int]
    expires: float


class AdminCache:
    """Admin ids per chat, fetched once per `ttl` seconds or after a membership change."""

    def __init__(self, ttl: float = 300.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.ttl = ttl
        self.clock = clock
        self._entries: dict[int, _Entry] = {}
        self._fetching: dict[int, asyncio.Task[frozenset[int]]] = {}
        self._generation: dict[int, int] = {}

    async def is_admin(self, bot: Bot, chat_id: int, user_id: int) -> bool:
        """True for the chat's creator and administrators; False if Telegram cannot say."""
        try:
            admins = await self.admins(bot, chat_id)
        except TelegramError as error:  # an unanswerable question means "no"
            log.warning("could not read the admins of chat %s: %s", chat_id, error)
            return False
        return user_id in admins

    async def admins(self, bot: Bot, chat_id: int) -> frozenset[int]:
        entry = self._entries.get(chat_id)
        if entry is not None and entry.expires > self.clock():
            return entry.admins
        task = self._fetching.get(chat_id)
        if task is None:
            task = asyncio.create_task(self._fetch(bot, chat_id))
            self._fetching[chat_id] = task
            task.add_done_callback(lambda done: self._fetched(chat_id, done))
        return await asyncio.shield(task)

    def forget(self, chat_id: int) -> None:
        """The chat's membership changed: the next question fetches the list again."""
        self._entries.pop(chat_id, None)
        self._generation[chat_id] = self._generation.get(chat_id, 0) + 1
        self._fetching.pop(chat_id, None)  # a fetch under way may predate the change

    async def _fetch(self, bot: Bot, chat_id: int) -> frozenset[int]:
        generation = self._generation.get(chat_id, 0)
        members = await bot.get_chat_administrators(chat_id)
        admins = frozenset(m.user.id for m in members if m.status in ADMIN_STATUSES)
        if self._generation.get(chat_id, 0) == generation:
            self._entries[chat_id] = _Entry(admins, self.clock() + self.ttl)
        return admins

    def _fetched(self, chat_id: int, task: asyncio.Task[frozenset[int]]) -> None:
        if self._fetching.get(chat_id) is task:
            del self._fetching[chat_id]
        if not task.cancelled():
            task.exception()  # retrieved here; askers get it through their await
