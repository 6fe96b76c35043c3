"""What delivery asks of the running bot, and no more: the store and the clock, the
wake-up of the sender's loop, each row's reader and texts, the link to the bot, and a way
to report what a delivery saw (`bot.services.Services` gives it all)."""

from __future__ import annotations

import asyncio
from datetime import datetime
from typing import Protocol

from bot.directory import Directory
from bot.editions.presentations import Presentations
from engine.commands import Command
from storage.service import Outcome, Store


class Delivering(Protocol):
    """The sender's view of the services."""

    @property
    def store(self) -> Store: ...

    @property
    def directory(self) -> Directory: ...  # each row's reader: language, zone, names

    @property
    def presentations(self) -> Presentations: ...  # each row's text and board picture

    @property
    def outbox_ready(self) -> asyncio.Event: ...  # set: rows wait to be claimed

    def now(self) -> datetime: ...

    def deep_link(self, payload: str) -> str: ...  # the bot's t.me link (an unreachable's)

    async def report(self, game_id: int, command: Command) -> Outcome: ...  # a clock seen
