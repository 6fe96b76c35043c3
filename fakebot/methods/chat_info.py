"""Bot API methods that read a chat: the chat itself, its members and administrators."""

from __future__ import annotations

from typing import Any

from ..chats import FakeGroup
from ..spec import bad_request
from ..users import FakePrivateChat
from .access import Access, Params


class ChatInfo:
    """getChat, getChatMember, getChatAdministrators and getChatMemberCount."""

    def __init__(self, access: Access):
        self.access = access

    async def on_getChat(self, params: Params) -> dict[str, Any]:
        return self.access.chat(params["chat_id"]).full_info()

    async def on_getChatMember(self, params: Params) -> dict[str, Any]:
        chat = self.access.chat(params["chat_id"])
        user = self.access.user(params["user_id"])
        if isinstance(chat, FakePrivateChat):
            if user is not chat.user and user is not self.access.world.bot:
                raise bad_request("user not found")
            return chat.member(user)
        assert isinstance(chat, FakeGroup)
        return chat.member(user)

    async def on_getChatAdministrators(self, params: Params) -> list[dict[str, Any]]:
        chat = self.access.chat(params["chat_id"])
        if not isinstance(chat, FakeGroup):
            raise bad_request("there are no administrators in the private chat")
        world = self.access.world
        admins = [
            world.users[u] for u, s in chat.statuses.items() if s in ("creator", "administrator")
        ]
        if chat.bot_status == "administrator":
            admins.append(world.bot)
        return [chat.member(user) for user in admins]

    async def on_getChatMemberCount(self, params: Params) -> int:
        chat = self.access.chat(params["chat_id"])
        if not isinstance(chat, FakeGroup):
            return 2
        present = ("creator", "administrator", "member", "restricted")
        return sum(s in present for s in chat.statuses.values()) + (chat.bot_status in present)
