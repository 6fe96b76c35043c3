"""The simulated world: users, chats, the bot's update queue and callback queries."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from .chats import ADMIN_RIGHTS, FakeChat, FakeGroup, FakeTopic, now
from .messages import CallbackAnswer, FakeMessage, Person
from .text import entity_text, format_text
from .users import FakePrivateChat, FakeUser

DEFAULT_UPDATES_EXCLUDED = frozenset({"chat_member", "message_reaction", "message_reaction_count"})


@dataclass
class CallbackQuery:
    """A pressed button waiting for answerCallbackQuery."""

    id: str
    user: FakeUser
    message: FakeMessage
    data: str
    created: float
    future: asyncio.Future[CallbackAnswer]
    answer: CallbackAnswer | None = None


class World:
    """Users, chats and the bot's pending updates."""

    def __init__(self, *, bot_id: int, bot_username: str, bot_name: str, privacy_mode: bool):
        self.bot = FakeUser(self, bot_id, bot_name, username=bot_username, is_bot=True)
        self.privacy_mode = privacy_mode
        self.users: dict[int, FakeUser] = {}
        self.chats: dict[int, FakeChat] = {}
        self.updates: list[dict[str, Any]] = []
        self.next_update_id = 1
        self.allowed_updates: list[str] | None = None
        self.callbacks: dict[str, CallbackQuery] = {}
        self.seen: set[int] = set()
        self._waiters: set[asyncio.Future[None]] = set()

    # -- creating things --------------------------------------------------------------------
    def add_user(
        self,
        first_name: str,
        *,
        username: str | None = None,
        language_code: str | None = "en",
        last_name: str | None = None,
    ) -> FakeUser:
        """A new user (ids from 100001 up)."""
        user = FakeUser(
            self, 100001 + len(self.users), first_name, last_name, username, language_code
        )
        self.users[user.id] = user
        return user

    def add_group(
        self,
        title: str,
        *,
        forum: bool = False,
        admins: Iterable[FakeUser] = (),
        members: Iterable[FakeUser] = (),
        owner: FakeUser | None = None,
        username: str | None = None,
        bot_admin: bool = False,
        announce: bool = False,
        basic: bool = False,
    ) -> FakeGroup:
        """A supergroup (a basic group if ``basic``) with the bot in it; ``owner`` defaults
        to the first admin."""
        admins = list(admins)
        if basic:
            group = FakeGroup(
                self, -4000000001 - len(self.chats), title, forum, username, basic=True
            )
        else:
            group = FakeGroup(self, -1001000000001 - len(self.chats), title, forum, username)
        self.chats[group.id] = group
        owner = owner or (admins[0] if admins else None)
        for user in members:
            group.statuses[user.id] = "member"
        for user in admins:
            group.statuses[user.id] = "administrator"
        if owner is not None:
            group.statuses[owner.id] = "creator"
        group.bot_status = "administrator" if bot_admin else "member"
        if announce:
            adder = owner or next(iter(self.users.values()), self.bot)
            self.my_chat_member(group, adder, "left", group.bot_status)
            joined = {"new_chat_members": [self.bot.to_api()]}
            self.deliver(group.add_message(adder, service=joined))
        return group

    def private_chat(self, user: FakeUser) -> FakePrivateChat:
        """The private chat of ``user`` with the bot (created on first use)."""
        chat = FakePrivateChat(self, user)
        self.chats[chat.id] = chat
        return chat

    def chat(self, chat_id: int | str) -> FakeChat | None:
        """A chat by id or by "@username" (groups only, as in Telegram)."""
        if isinstance(chat_id, str):
            if not chat_id.startswith("@"):
                return None
            name = chat_id[1:].lower()
            groups = (c for c in self.chats.values() if isinstance(c, FakeGroup))
            return next((g for g in groups if (g.username or "").lower() == name != ""), None)
        if chat_id in self.chats:
            return self.chats[chat_id]
        if chat_id in self.users:
            return self.users[chat_id].private_chat
        return None

    # -- users act --------------------------------------------------------------------------
    def user_post(
        self,
        user: FakeUser,
        chat: FakeChat,
        text: str,
        *,
        topic: FakeTopic | int | None = None,
        reply_to: FakeMessage | None = None,
    ) -> FakeMessage:
        """A user posts a plain-text message; the bot gets it if it would in Telegram."""
        thread = topic.thread_id if isinstance(topic, FakeTopic) else topic
        if isinstance(chat, FakeGroup):
            if chat.migrated_to is not None:
                raise ValueError(f"{chat.title} became chat {chat.migrated_to.id}; post there")
            if chat.status(user.id) in ("left", "kicked"):
                if chat.status(user.id) == "kicked":
                    raise ValueError(f"{user.first_name} is banned from {chat.title}")
                chat.statuses[user.id] = "member"
            if thread is not None and thread not in chat.topics:
                raise ValueError(f"no topic {thread} in {chat.title}")
        if reply_to is not None:
            if reply_to.chat is not chat:
                raise ValueError("reply_to must be a message of the same chat")
            thread = thread if thread is not None else reply_to.thread_id
        formatted = format_text(text)
        message = chat.add_message(
            user,
            text=formatted.text,
            html=text,
            entities=formatted.entities,
            reply_to=reply_to,
            thread_id=thread,
        )
        self.deliver(message)
        return message

    def user_edit(self, message: FakeMessage, text: str) -> FakeMessage:
        """A user edits a message."""
        formatted = format_text(text)
        message.apply_edit(formatted.text, text, formatted.entities, message.reply_markup, now())
        self.deliver(message, kind="edited_message")
        return message

    def callback_query(
        self,
        query_id: str,
        user: FakeUser,
        message: FakeMessage,
        data: str,
        future: asyncio.Future[CallbackAnswer],
    ) -> None:
        """Queue a callback_query update for a pressed button."""
        self.callbacks[query_id] = CallbackQuery(
            query_id, user, message, data, time.monotonic(), future
        )
        payload = {
            "id": query_id,
            "from": user.to_api(),
            "message": message.to_api(),
            "chat_instance": str(abs(hash((message.chat.id, self.bot.id)))),
            "data": data,
        }
        self.push_update("callback_query", payload, user)

    def my_chat_member(
        self, chat: FakeChat, by: Person, old: str | dict[str, Any], new: str | dict[str, Any]
    ) -> None:
        """Queue a my_chat_member update (the bot's own status changed): its old and new
        ChatMember, given whole or by status (an admin's with the chat's rights for it)."""
        payload = {
            "chat": chat.to_api(),
            "from": by.to_api(),
            "date": now(),
            "old_chat_member": old if isinstance(old, dict) else self._bot_member(chat, old),
            "new_chat_member": new if isinstance(new, dict) else self._bot_member(chat, new),
        }
        self.push_update("my_chat_member", payload, by)

    def chat_member(
        self, chat: FakeChat, by: Person, old: dict[str, Any], new: dict[str, Any]
    ) -> None:
        """Queue a chat_member update (a member's status changed; only if asked for)."""
        payload = {
            "chat": chat.to_api(),
            "from": by.to_api(),
            "date": now(),
            "old_chat_member": old,
            "new_chat_member": new,
        }
        self.push_update("chat_member", payload, by)

    def _bot_member(self, chat: FakeChat, status: str) -> dict[str, Any]:
        data: dict[str, Any] = {"status": status, "user": self.bot.to_api()}
        if status == "kicked":
            data["until_date"] = 0
        elif status == "administrator":
            data.update(getattr(chat, "bot_rights", ADMIN_RIGHTS))
        return data

    # -- delivery ---------------------------------------------------------------------------
    def deliver(self, message: FakeMessage, kind: str = "message") -> None:
        """Queue ``message`` as an update if the bot would receive it (privacy mode)."""
        if self._bot_receives(message):
            self.push_update(kind, message.to_api(), message.from_user)

    def _bot_receives(self, message: FakeMessage) -> bool:
        chat = message.chat
        if not isinstance(chat, FakeGroup):
            return not getattr(chat, "user", self.bot).blocked
        if chat.bot_status in ("left", "kicked"):
            return False
        if not self.privacy_mode or chat.bot_status == "administrator" or message.service:
            return True
        if message.reply_to is not None and message.reply_to.is_from_bot:
            return True
        bot_name = (self.bot.username or "").lower()
        for entity in message.entities:
            value = entity_text(message.text, entity).lower()
            if entity["type"] == "bot_command" and entity["offset"] == 0:
                target = value.partition("@")[2]
                if target in ("", bot_name):
                    return True
            if entity["type"] == "mention" and value == f"@{bot_name}":
                return True
        return False

    def push_update(self, kind: str, payload: dict[str, Any], about: Person | None = None) -> None:
        """Append an update unless allowed_updates excludes its kind."""
        allowed = self.allowed_updates
        if allowed:
            if kind not in allowed:
                return
        elif kind in DEFAULT_UPDATES_EXCLUDED:
            return
        if about is not None:
            self.seen.add(about.id)
        self.updates.append({"update_id": self.next_update_id, kind: payload})
        self.next_update_id += 1
        self.notify()

    # -- waiting ----------------------------------------------------------------------------
    def waiter(self) -> asyncio.Future[None]:
        """A future resolved at the next change (new update, shutdown)."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiters.add(future)
        future.add_done_callback(self._waiters.discard)
        return future

    def notify(self) -> None:
        """Wake everybody waiting for a change."""
        for future in list(self._waiters):
            if not future.done():
                future.set_result(None)

    async def wait_for(
        self, condition: Callable[[], Any], timeout: float = 5.0, what: str = ""
    ) -> Any:
        """Poll ``condition`` until it is truthy; TimeoutError after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            result = condition()
            if result:
                return result
            if time.monotonic() >= deadline:
                raise TimeoutError(f"timed out after {timeout}s waiting for {what or condition}")
            await asyncio.sleep(0.01)
