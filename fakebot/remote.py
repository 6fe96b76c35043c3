"""The remote fake's people, groups, topics and messages as a client sees them: handles
whose every call is a control operation (``await``-ed) of a :class:`Control`, the
connection to the fake (``FakeTelegramClient`` in ``client.py``), and messages as
snapshots (plain data, refetch to see later edits)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from .messages import CallbackAnswer


class Control(Protocol):
    """The control API of a fake Telegram server in another process."""

    async def op(self, name: str, /, **args: Any) -> Any:
        """Call one control operation."""
        ...

    async def message_list(self, name: str, **args: Any) -> list[RemoteMessage]:
        """A control operation returning messages."""
        ...

    async def wait_for(
        self,
        condition: Callable[[], Any],
        timeout: float = 5.0,
        *,
        chats: Iterable[int] | None = None,
    ) -> Any:
        """A condition's truthy value, checked again as the bot acts."""
        ...

    async def wait_call(
        self,
        *,
        after: float,
        chat_id: int | None = None,
        pattern: str | None = None,
        method: str = "sendMessage",
        timeout: float = 5.0,
    ) -> dict[str, Any]:
        """The first successful Bot API call of ``method`` after ``after``."""
        ...


@dataclass
class RemoteMessage:
    """A snapshot of a message in the remote fake (same attribute names as FakeMessage)."""

    message_id: int
    chat_id: int
    from_user_id: int | None
    text: str
    html: str
    entities: list[dict[str, Any]]
    bold: list[str]
    buttons: list[list[tuple[str, str | None]]]
    reply_to: RemoteMessage | None
    thread_id: int | None
    edits: list[dict[str, Any]] = field(default_factory=list)
    deleted: bool = False
    service: dict[str, Any] = field(default_factory=dict)
    date: int = 0

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RemoteMessage:
        """Build from a control-API snapshot."""
        data = dict(data)
        data["buttons"] = [[(b[0], b[1]) for b in row] for row in data["buttons"]]
        data["reply_to"] = cls.from_json(data["reply_to"]) if data.get("reply_to") else None
        return cls(**data)


@dataclass
class RemoteTopic:
    """A forum topic of a remote group."""

    group: RemoteGroup = field(repr=False)
    thread_id: int
    name: str

    async def messages(self) -> list[RemoteMessage]:
        """Messages in this topic."""
        return await self.group.messages(topic=self)


@dataclass
class RemoteGroup:
    """A supergroup in the remote fake."""

    client: Control = field(repr=False)
    id: int
    title: str
    forum: bool = False

    async def add_topic(self, name: str) -> RemoteTopic:
        """Create a forum topic."""
        data = await self.client.op("add_topic", chat_id=self.id, name=name)
        return RemoteTopic(self, data["thread_id"], data["name"])

    async def messages(self, topic: RemoteTopic | int | None = None) -> list[RemoteMessage]:
        """All messages of the group (of one topic if given)."""
        thread = topic.thread_id if isinstance(topic, RemoteTopic) else topic
        return await self.client.message_list("messages", chat_id=self.id, thread_id=thread)

    async def add_member(
        self, user: RemoteUser, *, status: str = "member", announce: bool = True
    ) -> None:
        """Make ``user`` a member."""
        await self.client.op(
            "add_member", chat_id=self.id, user_id=user.id, status=status, announce=announce
        )

    async def remove_member(self, user: RemoteUser, *, announce: bool = True) -> None:
        """``user`` leaves the group."""
        await self.client.op("remove_member", chat_id=self.id, user_id=user.id, announce=announce)

    async def remove_bot(self) -> None:
        """Kick the bot out of the group."""
        await self.client.op("remove_bot", chat_id=self.id)

    async def add_bot(self, *, admin: bool = False) -> None:
        """Add the bot back to the group."""
        await self.client.op("add_bot", chat_id=self.id, admin=admin)

    async def migrate(self) -> RemoteGroup:
        """Upgrade this basic group to a supergroup; the new chat (this id is then dead)."""
        data = await self.client.op("migrate_group", chat_id=self.id)
        return RemoteGroup(self.client, data["id"], data["title"], data["forum"])


@dataclass
class RemoteUser:
    """A user in the remote fake."""

    client: Control = field(repr=False)
    id: int
    first_name: str
    username: str | None = None

    async def _message(self, name: str, **args: Any) -> RemoteMessage:
        return RemoteMessage.from_json(await self.client.op(name, user_id=self.id, **args))

    async def send(
        self,
        chat: RemoteGroup | int,
        text: str,
        *,
        topic: RemoteTopic | int | None = None,
        reply_to: RemoteMessage | int | None = None,
    ) -> RemoteMessage:
        """Post ``text`` in a group."""
        chat_id = chat.id if isinstance(chat, RemoteGroup) else chat
        thread = topic.thread_id if isinstance(topic, RemoteTopic) else topic
        reply = reply_to.message_id if isinstance(reply_to, RemoteMessage) else reply_to
        return await self._message(
            "send", chat_id=chat_id, text=text, thread_id=thread, reply_to=reply
        )

    async def send_private(
        self, text: str, *, reply_to: RemoteMessage | int | None = None
    ) -> RemoteMessage:
        """Write to the bot privately."""
        reply = reply_to.message_id if isinstance(reply_to, RemoteMessage) else reply_to
        return await self._message("send_private", text=text, reply_to=reply)

    async def start_bot(self, payload: str | None = None) -> RemoteMessage:
        """Send ``/start [payload]`` privately."""
        return await self._message("start_bot", payload=payload)

    async def edit(self, message: RemoteMessage, text: str) -> RemoteMessage:
        """Edit one of this user's messages."""
        return await self._message(
            "edit", chat_id=message.chat_id, message_id=message.message_id, text=text
        )

    async def block_bot(self) -> None:
        """Block the bot."""
        await self.client.op("block_bot", user_id=self.id)

    async def unblock_bot(self) -> None:
        """Unblock the bot."""
        await self.client.op("unblock_bot", user_id=self.id)

    async def press(
        self,
        message: RemoteMessage,
        text: str | None = None,
        *,
        callback_data: str | None = None,
        timeout: float = 5.0,
    ) -> CallbackAnswer:
        """Press an inline button; waits for answerCallbackQuery or ``timeout``."""
        data = await self.client.op(
            "press",
            user_id=self.id,
            chat_id=message.chat_id,
            message_id=message.message_id,
            text=text,
            callback_data=callback_data,
            timeout=timeout,
        )
        return CallbackAnswer(**data)

    async def private_messages(self) -> list[RemoteMessage]:
        """What the bot sent to this user privately."""
        return await self.client.message_list("private_messages", user_id=self.id)

    async def wait_private(
        self,
        predicate: Callable[[RemoteMessage], object] = lambda m: True,
        timeout: float = 5.0,
        *,
        after: RemoteMessage | int | None = None,
    ) -> RemoteMessage:
        """The first private bot message matching ``predicate`` (newer than ``after``)."""
        floor = after.message_id if isinstance(after, RemoteMessage) else (after or 0)

        async def check() -> RemoteMessage | None:
            found = [
                m for m in await self.private_messages() if m.message_id > floor and predicate(m)
            ]
            return found[0] if found else None

        message: RemoteMessage = await self.client.wait_for(check, timeout, chats=[self.id])
        return message
