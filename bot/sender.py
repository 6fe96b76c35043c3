"""The one sender: delivers outbox rows to Telegram in order, with retries and back-off.

Rate limits are python-telegram-bot's AIORateLimiter (set on the Application); a 429
that still comes back reschedules the row after `retry_after`. A person who has not
started the bot (403) parks their rows until they do, and the thread is told once,
with a button that opens the private chat. A group the bot was removed from (403) parks
its rows until the bot is added back; a group that became a supergroup is followed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from datetime import timedelta
from typing import Any

from telegram import Bot, InlineKeyboardMarkup, ReplyParameters
from telegram.error import (
    BadRequest,
    ChatMigrated,
    Forbidden,
    NetworkError,
    RetryAfter,
    TelegramError,
)

from bot.messages import compose
from bot.render import Reader, buttons_markup, keyboard, split_text
from bot.services import Services
from storage.outbox import OutboxRow
from storage.planning import OutboxItem

log = logging.getLogger(__name__)
LEASE = timedelta(seconds=60)
MAX_BACKOFF = 300


def mentioned_users(value: Any, name: str = "") -> set[int]:
    """User ids an argument tree names (keys *_user, *_users and "user")."""
    found: set[int] = set()
    if isinstance(value, dict):
        for key, item in value.items():
            found |= mentioned_users(item, key)
    elif isinstance(value, list):
        for item in value:
            found |= mentioned_users(item, name)
    elif (
        isinstance(value, int)
        and not isinstance(value, bool)
        and (name == "user" or name.endswith(("_user", "_users")))
    ):
        found.add(value)
    return found


class Sender:
    """Claims rows and sends them; several senders (processes) may share one outbox."""

    def __init__(self, services: Services, bot: Bot, worker: str = "sender") -> None:
        self.services = services
        self.bot = bot
        self.worker = worker

    async def run(self, stop: asyncio.Event) -> None:
        """Deliver until `stop` is set; sleep until woken when there is nothing to send."""
        while not stop.is_set():
            try:
                sent = await self.deliver_some()
            except Exception:  # the loop must survive a database hiccup
                log.exception("outbox delivery failed; retrying")
                sent = 0
            if sent == 0:
                self.services.outbox_ready.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.services.outbox_ready.wait(), timeout=1.0)

    async def deliver_some(self, limit: int = 20) -> int:
        store = self.services.store
        rows = await store.claim_outbox(self.worker, self.services.now(), limit=limit, lease=LEASE)
        await asyncio.gather(*(self.deliver(row) for row in rows))
        return len(rows)

    async def deliver(self, row: OutboxRow) -> None:
        """Send (or edit) one row and record the outcome."""
        store = self.services.store
        try:
            message_id = await self._send(row)
        except Forbidden as error:
            await self._forbidden(row, error)
        except ChatMigrated as error:  # the group became a supergroup: follow it
            await store.chats.migrate(row.chat_id, error.new_chat_id)
            await store.mark_retry(row.id, "migrated", self.services.now())
        except RetryAfter as error:
            wait = error.retry_after
            seconds = wait.total_seconds() if isinstance(wait, timedelta) else float(wait)
            await store.mark_retry(row.id, "429", self.services.now() + timedelta(seconds=seconds))
        except BadRequest as error:
            if row.user_id is not None and "chat not found" in error.message.lower():
                await self._forbidden(row, error)  # a person the bot cannot reach yet
                return
            log.warning("outbox row %s refused by Telegram: %s", row.key, error.message)
            await store.mark_failed(row.id, error.message[:500])
        except (NetworkError, TelegramError) as error:
            backoff = min(2 ** (row.attempts + 1), MAX_BACKOFF)
            retry_at = self.services.now() + timedelta(seconds=backoff)
            await store.mark_retry(row.id, str(error)[:500], retry_at)
        except Exception as error:  # a message that cannot be rendered is a bug: keep going
            log.exception("outbox row %s could not be sent", row.key)
            await store.mark_failed(row.id, repr(error)[:500])
        else:
            await store.mark_sent(row.id, message_id, self.services.now())

    async def _reader(self, row: OutboxRow) -> Reader:
        directory = self.services.directory
        payload = row.payload
        if row.user_id is not None:
            language = await directory.person_language(row.user_id)
        else:
            language = await directory.chat_language(row.chat_id)
        people = await directory.persons(
            mentioned_users(payload.get("args", {})) | _button_users(payload)
        )
        return Reader(language, payload.get("tz", "UTC"), people, payload.get("labels") or {})

    async def _send(self, row: OutboxRow) -> int | None:
        payload = row.payload
        if (
            payload.get("msg") == "dm.reminder"
            and row.user_id is not None
            and not await self.services.directory.wants_reminders(row.user_id)
        ):
            return None  # the person turned reminders off: settled, nothing sent
        reader = await self._reader(row)
        text = compose(reader, payload["msg"], payload.get("args", {}))
        markup = keyboard(buttons_markup(reader, payload.get("buttons")))
        if payload.get("op") == "edit":
            return await self._edit(row, text, markup)
        reply_to = row.reply_to_message_id or payload.get("reply_to_message_id")
        parts = split_text(text)
        first: int | None = None
        for index, part in enumerate(parts):
            last = index == len(parts) - 1
            message = await self.bot.send_message(
                chat_id=row.chat_id,
                text=part,
                parse_mode="HTML",
                message_thread_id=row.topic_id or None,
                reply_parameters=ReplyParameters(reply_to, allow_sending_without_reply=True)
                if reply_to and first is None
                else None,
                reply_markup=markup if last else None,
            )
            first = first or message.message_id
        return first

    async def _edit(
        self, row: OutboxRow, text: str, markup: InlineKeyboardMarkup | None
    ) -> int | None:
        """Edit the message an earlier row sent; nothing to do if it was never sent."""
        target = await self.services.store.sent_message_id(row.payload["target"], row.chat_id)
        if target is None:
            return None
        try:
            await self.bot.edit_message_text(
                text, chat_id=row.chat_id, message_id=target, parse_mode="HTML", reply_markup=markup
            )
        except BadRequest as error:
            if not re.search(r"not modified|message to edit not found", error.message, re.I):
                raise
        return target

    async def _forbidden(self, row: OutboxRow, error: TelegramError) -> None:
        """A person who never started the bot or blocked it: park and tell the thread once.
        A group the bot is not in: park its queue until the bot is added back."""
        store = self.services.store
        if row.user_id is None:  # the bot is not in the group: hold its posts until it is back
            if await store.park_chat(row.id, error.message[:500]):
                log.warning(
                    "the bot cannot post in chat %s (%s); its messages wait until it is back",
                    row.chat_id,
                    error.message,
                )
            return
        await store.mark_undeliverable(row.id, "forbidden")
        await store.people.set_dm_ok(row.user_id, False)
        notify = row.payload.get("notify")
        if not notify:
            return
        chat_id, topic_id = int(notify[0]), int(notify[1])
        game = row.payload.get("game", 0)
        link = self.services.deep_link(f"g{game}")
        notice = OutboxItem(
            key=f"dmhint:{chat_id}:{topic_id}:{row.user_id}:{game}",
            chat_id=chat_id,
            topic_id=topic_id,
            payload={
                "msg": "dm.blocked_notice",
                "args": {"player_user": row.user_id},
                "buttons": [[{"t": "button.open_private", "url": link}]],
            },
        )
        await store.enqueue([notice], self.services.now())
        self.services.outbox_ready.set()


def _button_users(payload: dict[str, Any]) -> set[int]:
    return {
        int(spec["user"]) for row in payload.get("buttons") or [] for spec in row if "user" in spec
    }
