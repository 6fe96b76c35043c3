"""Chats of the simulated world: supergroups and forum topics, and what every chat shares
(a private chat is beside its user, in ``users.py``)."""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Protocol

from .messages import FakeMessage, Person
from .spec import ApiError

_FULL_INFO: Mapping[str, Any] = MappingProxyType(
    {
        "accent_color_id": 0,
        "max_reaction_count": 11,
        "accepted_gift_types": {
            "unlimited_gifts": False,
            "limited_gifts": False,
            "unique_gifts": False,
            "premium_subscription": False,
            "gifts_from_channels": False,
        },
    }
)
ADMIN_RIGHTS: Mapping[str, bool] = MappingProxyType(
    {
        "can_be_edited": False,
        "is_anonymous": False,
        "can_manage_chat": True,
        "can_delete_messages": True,
        "can_manage_video_chats": True,
        "can_restrict_members": True,
        "can_promote_members": False,
        "can_change_info": True,
        "can_invite_users": True,
        "can_post_stories": True,
        "can_edit_stories": True,
        "can_delete_stories": True,
        "can_pin_messages": True,
        "can_manage_topics": True,
    }
)


def admin_rights(changes: dict[str, bool]) -> dict[str, bool]:
    """An admin's rights: the usual ones with ``changes`` (only rights the Bot API has)."""
    unknown = set(changes) - set(ADMIN_RIGHTS)
    if unknown:
        raise ValueError(f"no such admin right: {', '.join(sorted(unknown))}")
    return {**ADMIN_RIGHTS, **changes}


def now() -> int:
    """Unix time, as Telegram dates are."""
    return int(time.time())


class ChatWorld(Protocol):
    """What a chat asks of the world it is in (``World`` is one)."""

    @property
    def bot(self) -> Person: ...
    @property
    def users(self) -> Mapping[int, Person]: ...
    def deliver(self, message: FakeMessage, kind: str = "message") -> None:
        """Queue ``message`` as an update if the bot would receive it."""
        ...

    def my_chat_member(
        self, chat: FakeChat, by: Person, old: str | dict[str, Any], new: str | dict[str, Any]
    ) -> None:
        """Queue a my_chat_member update (the bot's own status changed)."""
        ...

    def chat_member(
        self, chat: FakeChat, by: Person, old: dict[str, Any], new: dict[str, Any]
    ) -> None:
        """Queue a chat_member update (a member's status changed)."""
        ...

    def add_group(self, title: str, *, bot_admin: bool = False) -> FakeGroup:
        """A new supergroup with the bot in it."""
        ...


class FakeChat:
    """A chat with its messages (base of private chats and groups)."""

    type = "private"

    def __init__(self, world: ChatWorld, chat_id: int):
        self.world = world
        self.id = chat_id
        self._messages: list[FakeMessage] = []
        self._by_id: dict[int, FakeMessage] = {}
        self.actions: list[str] = []

    def messages(
        self, topic: FakeTopic | int | None = None, *, deleted: bool = False, service: bool = True
    ) -> list[FakeMessage]:
        """All messages in order (people's and the bot's); only ``topic``'s if given.

        Deleted messages are left out unless ``deleted``; service messages (topic created,
        members joined or left) are included unless ``service=False``.
        """
        thread = topic.thread_id if isinstance(topic, FakeTopic) else topic
        return [
            m
            for m in self._messages
            if (deleted or not m.deleted)
            and (service or not m.service)
            and (thread is None or m.thread_id == thread)
        ]

    def message(self, message_id: int) -> FakeMessage | None:
        """The (not deleted) message with this id."""
        message = self._by_id.get(message_id)
        return None if message is None or message.deleted else message

    def add_message(self, sender: Person | None, **fields: Any) -> FakeMessage:
        """Append a message with the next message id."""
        message_id = len(self._messages) + 1
        message = FakeMessage(self, message_id, sender, now(), **fields)
        self._messages.append(message)
        self._by_id[message_id] = message
        return message

    def to_api(self) -> dict[str, Any]:
        """The Bot API ``Chat`` object."""
        raise NotImplementedError

    def full_info(self) -> dict[str, Any]:
        """The Bot API ``ChatFullInfo`` object."""
        return {**self.to_api(), **_FULL_INFO}


@dataclass(eq=False)
class FakeTopic:
    """A forum topic; ``thread_id`` is its message_thread_id."""

    chat: FakeGroup = field(repr=False)
    thread_id: int
    name: str
    closed: bool = False

    def messages(self) -> list[FakeMessage]:
        """Messages in this topic."""
        return self.chat.messages(topic=self)


class FakeGroup(FakeChat):
    """A supergroup (a forum if ``forum``) that the bot is in; a basic group if ``basic``.

    A basic group can be upgraded (:meth:`migrate`): Telegram gives it a new id, and the old
    one then answers every request with ``migrate_to_chat_id``.
    """

    type = "supergroup"

    def __init__(
        self,
        world: ChatWorld,
        chat_id: int,
        title: str,
        forum: bool,
        username: str | None,
        *,
        basic: bool = False,
    ):
        super().__init__(world, chat_id)
        if basic and (forum or username):
            raise ValueError("a basic group has no topics and no username")
        self.title, self.forum, self.username = title, forum, username
        self.type = "group" if basic else "supergroup"
        self.statuses: dict[int, str] = {}
        self.bot_status = "member"
        self.topics: dict[int, FakeTopic] = {}
        self.migrated_to: FakeGroup | None = None
        self.bot_rights = dict(ADMIN_RIGHTS)  # the bot's rights while it is an admin here
        self.pinned: list[int] = []  # the pinned messages' ids, the latest pinned last

    def refusal(self) -> ApiError | None:
        """The error a request about this chat gets from Telegram, if any."""
        if self.migrated_to is not None:
            upgraded = "Bad Request: group chat was upgraded to a supergroup chat"
            return ApiError(400, upgraded, {"migrate_to_chat_id": self.migrated_to.id})
        if self.bot_status == "kicked":
            return ApiError(403, f"Forbidden: bot was kicked from the {self.type} chat")
        if self.bot_status == "left":
            return ApiError(403, f"Forbidden: bot is not a member of the {self.type} chat")
        return None

    def to_api(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id, "type": self.type, "title": self.title}
        if self.username:
            data["username"] = self.username
        if self.forum:
            data["is_forum"] = True
        return data

    def add_topic(self, name: str, *, creator: Person | None = None) -> FakeTopic:
        """Create a forum topic (posts the forum_topic_created service message)."""
        if not self.forum:
            raise ValueError(f"{self.title} is not a forum")
        creator = creator or self.owner()
        created = {"forum_topic_created": {"name": name, "icon_color": 7322096}}
        message = self.add_message(creator, service=created)
        message.thread_id = message.message_id
        topic = FakeTopic(self, message.message_id, name)
        self.topics[topic.thread_id] = topic
        self.world.deliver(message)
        return topic

    def owner(self) -> Person | None:
        """The creator of the group, if any."""
        return next((self.world.users[u] for u, s in self.statuses.items() if s == "creator"), None)

    def status(self, user_id: int) -> str:
        """creator / administrator / member / left / kicked."""
        if user_id == self.world.bot.id:
            return self.bot_status
        return self.statuses.get(user_id, "left")

    def member(self, user: Person) -> dict[str, Any]:
        """The Bot API ``ChatMember`` object of ``user``."""
        status = self.status(user.id)
        data: dict[str, Any] = {"status": status, "user": user.to_api()}
        if status == "creator":
            data["is_anonymous"] = False
        elif status == "administrator":
            data.update(self.bot_rights if user.id == self.world.bot.id else ADMIN_RIGHTS)
        elif status == "kicked":
            data["until_date"] = 0
        return data

    def may_pin(self) -> bool:
        """Whether the bot may pin here: an admin with the can_pin_messages right."""
        return self.bot_status == "administrator" and bool(self.bot_rights["can_pin_messages"])

    def pin(self, message: FakeMessage, by: Person) -> None:
        """Pin ``message`` (pinned again: moved to the top), with Telegram's service message
        in its topic."""
        if message.message_id in self.pinned:
            self.pinned.remove(message.message_id)
        self.pinned.append(message.message_id)
        note = {"pinned_message": message.to_api(nested=True)}
        self.add_message(by, service=note, thread_id=message.thread_id)

    def add_member(self, user: Person, *, status: str = "member", announce: bool = True) -> None:
        """Make ``user`` a member (a new_chat_members service message if ``announce``)."""
        was = self.status(user.id)
        self.statuses[user.id] = status
        if announce and was in ("left", "kicked"):
            joined = {"new_chat_members": [user.to_api()]}
            self.world.deliver(self.add_message(user, service=joined))

    def set_status(self, user: Person, status: str, *, by: Person | None = None) -> None:
        """Promote, demote or restrict ``user``: the bot gets a ``chat_member`` update
        (when it is an admin here and asked for them, as Telegram does)."""
        old = self.member(user)
        self.statuses[user.id] = status
        if self.bot_status == "administrator":
            self.world.chat_member(self, by or self.owner() or user, old, self.member(user))

    def remove_member(self, user: Person, *, announce: bool = True) -> None:
        """``user`` leaves the group (a left_chat_member service message if ``announce``)."""
        self.statuses[user.id] = "left"
        if announce:
            self.world.deliver(self.add_message(user, service={"left_chat_member": user.to_api()}))

    def remove_bot(self, *, by: Person | None = None) -> None:
        """Kick the bot out (then sending here gives 403; the bot gets my_chat_member)."""
        was, self.bot_status = self.bot_status, "kicked"
        self.world.my_chat_member(self, by or self.owner() or self.world.bot, was, "kicked")

    def add_bot(self, *, by: Person | None = None, admin: bool = False, **rights: bool) -> None:
        """Add the bot (back), as an admin with ``rights`` changed from the usual ones if
        ``admin``: my_chat_member, then the new_chat_members service message."""
        adder, chosen = by or self.owner() or self.world.bot, admin_rights(rights)
        was, self.bot_status = self.bot_status, "administrator" if admin else "member"
        self.bot_rights = chosen
        self.world.my_chat_member(self, adder, was, self.bot_status)
        joined = {"new_chat_members": [self.world.bot.to_api()]}
        self.world.deliver(self.add_message(adder, service=joined))

    def set_bot_status(self, status: str, *, by: Person | None = None, **rights: bool) -> None:
        """Promote the bot ("administrator", with ``rights`` changed from the usual ones),
        change its rights, or demote it ("member"), as an admin does in the group's
        settings: the bot gets my_chat_member with its old and new ChatMember."""
        old, chosen = self.member(self.world.bot), admin_rights(rights)
        self.bot_status, self.bot_rights = status, chosen
        new = self.member(self.world.bot)
        self.world.my_chat_member(self, by or self.owner() or self.world.bot, old, new)

    def migrate(self, *, by: Person | None = None, deliver: bool = True) -> FakeGroup:
        """Upgrade this basic group to a supergroup, as Telegram does; returns the new chat.

        The old chat gets a ``migrate_to_chat_id`` service message, the new one (whose first
        message it is) a ``migrate_from_chat_id`` one, delivered in that order unless
        ``deliver`` is False (then a test delivers them itself, late or twice, with
        ``world.deliver``). Members, admins and the bot keep their places.
        """
        if self.type != "group" or self.migrated_to is not None:
            raise ValueError(f"{self.title} is not a basic group")
        who = by or self.owner() or self.world.bot
        new = self.world.add_group(self.title, bot_admin=self.bot_status == "administrator")
        new.statuses = dict(self.statuses)
        new.bot_status = self.bot_status
        self.migrated_to = new
        told = self.add_message(who, service={"migrate_to_chat_id": new.id})
        told_new = new.add_message(who, service={"migrate_from_chat_id": self.id})
        if deliver:
            self.world.deliver(told)
            self.world.deliver(told_new)
        return new
