"""Bot API methods about the bot itself: who it is, its commands, its menu button."""

from __future__ import annotations

import json
import re
from typing import Any

from ..chats import FakeGroup
from ..spec import bad_request
from ..users import FakePrivateChat
from .access import Access, Params

MAX_COMMANDS = 100


class BotSettings:
    """getMe; set/delete/getMyCommands per scope and language; set/getChatMenuButton."""

    def __init__(self, access: Access):
        self.access = access
        self.commands: dict[tuple[str, str], list[dict[str, Any]]] = {}
        self.menu_buttons: dict[int, dict[str, Any]] = {}

    async def on_getMe(self, params: Params) -> dict[str, Any]:
        world = self.access.world
        return {
            **world.bot.to_api(),
            "can_join_groups": True,
            "can_read_all_group_messages": not world.privacy_mode,
            "supports_inline_queries": False,
            "can_connect_to_business": False,
            "has_main_web_app": False,
        }

    def scope_key(self, params: Params) -> tuple[str, str]:
        """A hashable key for (scope, language_code), checking chats and users in the scope."""
        language = params.get("language_code") or ""
        if language and not re.fullmatch(r"[a-z]{2}", language):
            raise bad_request("invalid language code specified")
        scope = dict(params.get("scope") or {"type": "default"})
        if "chat_id" in scope:
            chat = self.access.chat(scope["chat_id"])
            scope["chat_id"] = chat.id
            if scope["type"] != "chat" and not isinstance(chat, FakeGroup):
                raise bad_request("can't change commands of administrators of a private chat")
        if "user_id" in scope:
            self.access.user(scope["user_id"])
        return json.dumps(scope, sort_keys=True), language

    async def on_setMyCommands(self, params: Params) -> bool:
        if len(params["commands"]) > MAX_COMMANDS:
            raise bad_request("too many commands")
        self.commands[self.scope_key(params)] = params["commands"]
        return True

    async def on_deleteMyCommands(self, params: Params) -> bool:
        self.commands.pop(self.scope_key(params), None)
        return True

    async def on_getMyCommands(self, params: Params) -> list[dict[str, Any]]:
        return self.commands.get(self.scope_key(params), [])

    def menu_chat(self, params: Params) -> int:
        """The private chat a menu button is for (0: the default for all)."""
        if "chat_id" not in params:
            return 0
        chat = self.access.chat(params["chat_id"])
        if not isinstance(chat, FakePrivateChat):
            raise bad_request("menu button can be set only in private chats")
        return chat.id

    async def on_setChatMenuButton(self, params: Params) -> bool:
        self.menu_buttons[self.menu_chat(params)] = params.get("menu_button") or {"type": "default"}
        return True

    async def on_getChatMenuButton(self, params: Params) -> dict[str, Any]:
        chat_id = self.menu_chat(params)
        button = self.menu_buttons.get(chat_id)
        if button is None or (chat_id and button["type"] == "default"):
            button = self.menu_buttons.get(0)
        return button or {"type": "commands"}
