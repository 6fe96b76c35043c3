"""The Bot API methods the fake implements, with Telegram's semantics and error texts.

Each family is a class of ``on_<method>`` handlers over one :class:`Access` (what the bot
may reach): ``sending``, ``editing``, ``chat_info``, ``settings`` (the bot's own) and
``updates`` (getUpdates, the webhook, callback answers). :class:`BotApi` routes a call to
its handler.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from ..webhook import Webhook
from ..world import World
from .access import Access, Params, not_implemented
from .chat_info import ChatInfo
from .editing import Editing
from .sending import Sending
from .settings import BotSettings
from .updates import Updates


class BotApi:
    """Implements Bot API methods against a :class:`World`."""

    def __init__(self, world: World, *, callback_ttl: float = 15.0):
        self.world = world
        access = Access(world)
        self.webhook = Webhook(world)
        self.settings = BotSettings(access)
        self.updates = Updates(world, self.webhook, callback_ttl=callback_ttl)
        families = (Sending(access), Editing(access), ChatInfo(access), self.settings, self.updates)
        self.handlers: dict[str, Callable[[Params], Awaitable[Any]]] = {
            name[3:]: getattr(family, name)
            for family in families
            for name in dir(family)
            if name.startswith("on_")
        }

    @property
    def commands(self) -> dict[tuple[str, str], list[dict[str, Any]]]:
        """The commands set with setMyCommands, by (scope, language)."""
        return self.settings.commands

    async def call(self, method: str, params: Params) -> Any:
        """Run ``method`` (canonical name) with validated ``params``."""
        handler = self.handlers.get(method)
        if handler is None:
            raise not_implemented(method)
        return await handler(params)

    def close(self) -> None:
        """Release long polls (server shutdown)."""
        self.updates.close()
