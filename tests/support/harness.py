"""End-to-end tests' people and what they read: the `Party` of the `table` fixture, the bot's
posts. The bot itself on the fake Bot API (`BotHarness`, `Clock`) is in `testbed.harness`."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from fakebot import FakeGroup, FakeMessage, FakeTelegram, FakeUser
from testbed.harness import TOKEN as TOKEN
from testbed.harness import BotHarness as BotHarness
from testbed.harness import Clock as Clock
from tests.support.catalogs import literal


def end_post(chat: FakeGroup) -> FakeMessage:
    """The game's end post: the last of the bot's posts but the story and the achievements
    that may follow it."""
    after = (literal("en", "story.title"), literal("en", "achievements.post"))
    return [m for m in bot_messages(chat) if not m.text.startswith(after)][-1]


def bot_messages(chat: FakeGroup) -> list[FakeMessage]:
    """The bot's posts (not the service notes of what it did, such as pinning one)."""
    return [m for m in chat.messages(service=False) if m.is_from_bot]


def database_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'bot.db'}"


@dataclass
class Party:
    """An end-to-end test's people: the fake Bot API, the real bot on it, a group and four
    people in it (alice is the group's admin). The `table` fixture of tests/bot builds one."""

    server: FakeTelegram
    bot: BotHarness
    group: FakeGroup
    alice: FakeUser
    bob: FakeUser
    carol: FakeUser
    dave: FakeUser

    @property
    def players(self) -> list[FakeUser]:
        return [self.alice, self.bob, self.carol, self.dave]
