"""Simulated Telegram users: they post messages, start/block the bot and press buttons;
and the private chat of each with the bot."""

from __future__ import annotations

import asyncio
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from .chats import ChatWorld, FakeChat, FakeTopic
from .messages import CallbackAnswer, FakeMessage, Person

_PAYLOAD = re.compile(r"[A-Za-z0-9_-]{1,64}")


class UserWorld(Protocol):
    """What a user asks of the world they act in (``World`` is one)."""

    def private_chat(self, user: FakeUser) -> FakePrivateChat:
        """The private chat of ``user`` with the bot."""
        ...

    def user_post(
        self,
        user: FakeUser,
        chat: FakeChat,
        text: str,
        *,
        topic: FakeTopic | int | None = None,
        reply_to: FakeMessage | None = None,
    ) -> FakeMessage:
        """A user posts a plain-text message."""
        ...

    def user_edit(self, message: FakeMessage, text: str) -> FakeMessage:
        """A user edits a message."""
        ...

    def my_chat_member(
        self, chat: FakeChat, by: FakeUser, old: str | dict[str, Any], new: str | dict[str, Any]
    ) -> None:
        """Queue a my_chat_member update (the bot's own status changed)."""
        ...

    def callback_query(
        self,
        query_id: str,
        user: FakeUser,
        message: FakeMessage,
        data: str,
        future: asyncio.Future[CallbackAnswer],
    ) -> None:
        """Queue a callback_query update for a pressed button."""
        ...

    async def wait_for(
        self, condition: Callable[[], Any], timeout: float = 5.0, what: str = ""
    ) -> Any:
        """Poll ``condition`` until it is truthy."""
        ...


@dataclass(eq=False)
class FakeUser:
    """A Telegram user (or the bot itself, with ``is_bot=True``)."""

    world: UserWorld = field(repr=False)
    id: int
    first_name: str
    last_name: str | None = None
    username: str | None = None
    language_code: str | None = None
    is_bot: bool = False
    started: bool = False
    blocked: bool = False
    _private: FakePrivateChat | None = field(default=None, repr=False)

    def to_api(self) -> dict[str, Any]:
        """The Bot API ``User`` object."""
        data: dict[str, Any] = {"id": self.id, "is_bot": self.is_bot, "first_name": self.first_name}
        for key in ("last_name", "username", "language_code"):
            if getattr(self, key):
                data[key] = getattr(self, key)
        return data

    @property
    def private_chat(self) -> FakePrivateChat:
        """The private chat between this user and the bot."""
        if self._private is None:
            self._private = self.world.private_chat(self)
        return self._private

    # -- actions ----------------------------------------------------------------------------
    def send(
        self,
        chat: FakeChat,
        text: str,
        *,
        topic: FakeTopic | int | None = None,
        reply_to: FakeMessage | None = None,
    ) -> FakeMessage:
        """Post ``text`` in ``chat`` (a group or this user's private chat with the bot).

        Posting in a group the user is not in makes them a member silently.  In a forum the
        message goes to ``topic`` (or the topic of ``reply_to``, else General).
        """
        if chat is self.private_chat:
            return self.send_private(text, reply_to=reply_to)
        if chat.type == "private":
            raise ValueError("users can only write to the bot privately; use send_private()")
        return self.world.user_post(self, chat, text, topic=topic, reply_to=reply_to)

    def send_private(self, text: str, *, reply_to: FakeMessage | None = None) -> FakeMessage:
        """Write to the bot in private (the user must have started it and not blocked it)."""
        if self.blocked:
            raise ValueError(f"{self.first_name} blocked the bot; call unblock_bot() first")
        if not self.started:
            raise ValueError(f"{self.first_name} never opened the bot; call start_bot() first")
        return self.world.user_post(self, self.private_chat, text, reply_to=reply_to)

    def start_bot(self, payload: str | None = None) -> FakeMessage:
        """Open the private chat and press Start: sends ``/start`` or ``/start <payload>``."""
        if payload is not None and not _PAYLOAD.fullmatch(payload):
            raise ValueError("a deep-link payload is 1-64 characters of A-Z, a-z, 0-9, _ and -")
        if self.blocked:
            self.unblock_bot()
        self.started = True
        text = "/start" if payload is None else f"/start {payload}"
        return self.world.user_post(self, self.private_chat, text)

    def block_bot(self) -> None:
        """Block the bot: the bot gets a my_chat_member update and 403 on sending."""
        if not self.blocked:
            self.blocked = True
            self.world.my_chat_member(self.private_chat, self, "member", "kicked")

    def unblock_bot(self) -> None:
        """Unblock the bot again."""
        if self.blocked:
            self.blocked = False
            self.world.my_chat_member(self.private_chat, self, "kicked", "member")

    def edit(self, message: FakeMessage, text: str) -> FakeMessage:
        """Edit one of this user's messages (the bot gets an edited_message update)."""
        if message.from_user is not self:
            raise ValueError("users can only edit their own messages")
        return self.world.user_edit(message, text)

    async def press(
        self,
        message: FakeMessage,
        text: str | None = None,
        *,
        callback_data: str | None = None,
        timeout: float = 5.0,
    ) -> CallbackAnswer:
        """Press an inline button by its text (or callback_data) and wait for the bot's answer.

        Returns when the bot calls answerCallbackQuery, or after ``timeout`` seconds with
        ``answered=False``.
        """
        if message.deleted:
            raise ValueError(f"{message!r} was deleted")
        button = message.find_button(text, callback_data)
        if "callback_data" not in button:
            raise ValueError(f"button {button['text']!r} is not a callback button: {button}")
        if message.chat.type == "private" and message.chat is not self.private_chat:
            raise ValueError("that message is in somebody else's private chat")
        query_id = str(secrets.randbelow(10**18))
        future: asyncio.Future[CallbackAnswer] = asyncio.get_running_loop().create_future()
        self.world.callback_query(query_id, self, message, button["callback_data"], future)
        try:
            return await asyncio.wait_for(asyncio.shield(future), timeout)
        except TimeoutError:
            return CallbackAnswer(answered=False)

    # -- what the bot sent ------------------------------------------------------------------
    def private_messages(self) -> list[FakeMessage]:
        """What the bot sent to this user privately, in order (edits applied)."""
        return [m for m in self.private_chat.messages() if m.is_from_bot]

    async def wait_private(
        self,
        predicate: Callable[[FakeMessage], object] = lambda m: True,
        timeout: float = 5.0,
        *,
        after: FakeMessage | int | None = None,
    ) -> FakeMessage:
        """The first private bot message matching ``predicate`` (newer than ``after``)."""
        floor = after.message_id if isinstance(after, FakeMessage) else (after or 0)
        found: list[FakeMessage] = []

        def check() -> bool:
            found[:] = [m for m in self.private_messages() if m.message_id > floor and predicate(m)]
            return bool(found)

        await self.world.wait_for(check, timeout, f"a private message to {self.first_name}")
        return found[0]


class FakePrivateChat(FakeChat):
    """The private chat of a user with the bot (its id is the user's id)."""

    def __init__(self, world: ChatWorld, user: FakeUser):
        super().__init__(world, user.id)
        self.user = user

    def to_api(self) -> dict[str, Any]:
        data = {"id": self.id, "type": "private", "first_name": self.user.first_name}
        for key in ("last_name", "username"):
            if getattr(self.user, key):
                data[key] = getattr(self.user, key)
        return data

    def member(self, user: Person) -> dict[str, Any]:
        """ChatMember of the user or the bot in this private chat."""
        return {"status": "member", "user": user.to_api()}
