"""Admin lists: one getChatAdministrators per chat per expiry, re-read after a member change."""

from __future__ import annotations

import asyncio

from telegram import Bot

from bot.admins import AdminCache
from fakebot import FakeTelegram
from tests.support.harness import TOKEN, Party, bot_messages
from tests.support.play import open_and_start


class Ticks:
    """A monotonic clock the test moves."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def test_one_fetch_per_chat_per_expiry_shared_by_concurrent_askers(
    server: FakeTelegram,
) -> None:
    alice = server.add_user("Alice", username="alice")
    bob = server.add_user("Bob", username="bob")
    one = server.add_group("One", admins=[alice], members=[bob])
    two = server.add_group("Two", admins=[bob], members=[alice])
    ticks = Ticks()
    cache = AdminCache(ttl=300, clock=ticks)
    async with Bot(TOKEN, base_url=server.base_url) as bot:

        def fetches() -> int:
            return len(server.calls_to("getChatAdministrators"))

        asked = [cache.is_admin(bot, one.id, p.id) for p in (alice, bob) * 10]
        assert await asyncio.gather(*asked) == [True, False] * 10
        assert fetches() == 1
        assert await cache.is_admin(bot, two.id, bob.id)
        assert not await cache.is_admin(bot, two.id, alice.id)
        assert fetches() == 2
        ticks.now += 299
        assert not await cache.is_admin(bot, one.id, bob.id)
        assert fetches() == 2
        one.statuses[bob.id] = "administrator"  # promoted; no update tells the cache
        ticks.now += 2
        assert await cache.is_admin(bot, one.id, bob.id)  # expired: read again
        assert fetches() == 3
        one.statuses[bob.id] = "member"
        cache.forget(one.id)
        assert not await cache.is_admin(bot, one.id, bob.id)
        assert fetches() == 4
        assert not server.calls_to("getChatMember")


async def test_a_fetch_that_fails_answers_no_and_is_not_kept(server: FakeTelegram) -> None:
    alice = server.add_user("Alice", username="alice")
    group = server.add_group("One", admins=[alice])
    cache = AdminCache(ttl=300)
    async with Bot(TOKEN, base_url=server.base_url) as bot:
        server.fail_next("getChatAdministrators", 400, times=1)
        assert not await cache.is_admin(bot, group.id, alice.id)
        assert await cache.is_admin(bot, group.id, alice.id)


async def test_refusing_non_admins_costs_no_api_call_and_a_promotion_counts_at_once(
    table: Party,
) -> None:
    # The bot asks for chat_member updates (as `whodunit run` does).
    table.server.world.allowed_updates = ["message", "callback_query", "chat_member"]
    game_id = await open_and_start(table)
    before = len(table.server.calls_to("getChatAdministrators"))
    for _ in range(5):
        await table.bot.say(table.bob, table.group, "/pause")
    refusals = [m for m in bot_messages(table.group) if "Only a chat admin" in m.text]
    assert len(refusals) == 5
    assert len(table.server.calls_to("getChatAdministrators")) - before <= 1
    assert not table.server.calls_to("getChatMember")

    # Alice makes Bob an admin: Telegram tells the bot, and his next /pause works.
    table.group.set_status(table.bob, "administrator", by=table.alice)
    await table.bot.settle()
    await table.bot.say(table.bob, table.group, "/pause")
    game = await table.bot.services.store.load(game_id)
    assert game.paused
    assert len(table.server.calls_to("getChatAdministrators")) - before <= 2
