"""The fake's webhook: setWebhook's checks, getWebhookInfo, the getUpdates conflict, and
posting updates with the secret, in order per chat, again after a failure."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest
from aiohttp import web
from telegram import Bot
from telegram.error import BadRequest, Conflict

from fakebot import FakeTelegram
from tests.fakebot.shared import TOKEN

Answer = Callable[[dict[str, Any]], Awaitable[int]]


class Receiver:
    """A tiny webhook endpoint that records what it got and answers `answer(update)`."""

    def __init__(self) -> None:
        self.got: list[tuple[dict[str, Any], str | None]] = []
        self.answer: Answer = self._ok
        self.open = 0
        self.most_open = 0
        app = web.Application()
        app.router.add_post("/hook", self._handle)
        self.runner = web.AppRunner(app, access_log=None)

    async def _ok(self, update: dict[str, Any]) -> int:
        return 200

    async def _handle(self, request: web.Request) -> web.Response:
        update = await request.json()
        self.got.append((update, request.headers.get("X-Telegram-Bot-Api-Secret-Token")))
        self.open += 1
        self.most_open = max(self.most_open, self.open)
        try:
            return web.Response(status=await self.answer(update))
        finally:
            self.open -= 1

    async def start(self) -> str:
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        return f"http://127.0.0.1:{self.runner.addresses[0][1]}/hook"

    def ids(self) -> list[int]:
        return [u["update_id"] for u, _ in self.got]


@pytest.fixture
async def open_server() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram(TOKEN, allow_http_webhooks=True, webhook_retry_seconds=0.05) as fake:
        yield fake


@pytest.fixture
async def receiver() -> AsyncIterator[Receiver]:
    hook = Receiver()
    yield hook
    await hook.runner.cleanup()


@pytest.mark.parametrize(
    ("url", "secret", "connections", "error"),
    [
        ("http://bot.example.org/hook", "s", 40, "An HTTPS URL must be provided"),
        ("https://bot.example.org:8080/hook", "s", 40, "only on ports 80, 88, 443 or 8443"),
        ("https://bot.example.org/hook", "has space", 40, "secret token contains unallowed"),
        ("https://bot.example.org/hook", "x" * 257, 40, "secret token contains unallowed"),
        ("https://bot.example.org/hook", "s", 0, "max_connections"),
        ("https://bot.example.org/hook", "s", 101, "max_connections"),
    ],
)
async def test_set_webhook_is_checked_like_telegram(
    server: FakeTelegram, bot: Bot, url: str, secret: str, connections: int, error: str
) -> None:
    with pytest.raises(BadRequest, match=f"(?i){error}"):
        await bot.set_webhook(url, secret_token=secret, max_connections=connections)
    info = await bot.get_webhook_info()
    assert info.url == ""


async def test_webhook_info_and_the_get_updates_conflict(server: FakeTelegram, bot: Bot) -> None:
    url = "https://127.0.0.1:88/hook"  # nothing listens there: refused at once
    alice = server.add_user("Alice")
    assert await bot.set_webhook(
        url, secret_token="s3cret", max_connections=7, allowed_updates=["message"]
    )
    info = await bot.get_webhook_info()
    assert (info.url, info.max_connections, info.allowed_updates) == (url, 7, ("message",))
    alice.start_bot()
    await server.wait_for(lambda: server.webhook.last_error_message, timeout=5)
    info = await bot.get_webhook_info()
    assert info.pending_update_count == 1
    assert info.last_error_date is not None and info.last_error_message
    with pytest.raises(Conflict, match="webhook is active"):
        await bot.get_updates()
    assert await bot.delete_webhook()
    info = await bot.get_webhook_info()
    assert info.url == "" and info.last_error_date is None and info.pending_update_count == 1
    assert [u.update_id for u in await bot.get_updates()] == [1]


async def test_updates_are_posted_with_the_secret_and_leave_the_queue_on_200(
    open_server: FakeTelegram, receiver: Receiver
) -> None:
    async with Bot(TOKEN, base_url=open_server.base_url) as bot:
        await bot.set_webhook(await receiver.start(), secret_token="s3cret")
    alice = open_server.add_user("Alice")
    alice.start_bot()
    alice.send_private("hello")
    await open_server.wait_for(lambda: not open_server.updates and len(receiver.got) == 2)
    assert receiver.ids() == [1, 2]
    assert {secret for _, secret in receiver.got} == {"s3cret"}
    assert receiver.got[1][0]["message"]["text"] == "hello"
    assert all(d.ok for d in open_server.webhook.deliveries)


async def test_a_refused_update_comes_again_and_the_chat_waits_for_it(
    open_server: FakeTelegram, receiver: Receiver
) -> None:
    refusals = {"left": 2}

    async def answer(update: dict[str, Any]) -> int:
        if update["update_id"] == 1 and refusals["left"]:
            refusals["left"] -= 1
            return 500
        return 200

    receiver.answer = answer
    async with Bot(TOKEN, base_url=open_server.base_url) as bot:
        await bot.set_webhook(await receiver.start(), secret_token="s")
        alice = open_server.add_user("Alice")
        alice.start_bot()
        alice.send_private("second")
        await open_server.wait_for(lambda: not open_server.updates)
        info = await bot.get_webhook_info()
    assert receiver.ids() == [1, 1, 1, 2]  # update 2 of the same chat waited for 1
    assert info.last_error_message == "Wrong response from the webhook: 500 Internal Server Error"
    statuses = [d.status for d in open_server.webhook.deliveries]
    assert statuses == [500, 500, 200, 200]


async def test_chats_are_posted_side_by_side_up_to_max_connections(
    open_server: FakeTelegram, receiver: Receiver
) -> None:
    release = asyncio.Event()

    async def answer(update: dict[str, Any]) -> int:
        await release.wait()
        return 200

    receiver.answer = answer
    async with Bot(TOKEN, base_url=open_server.base_url) as bot:
        await bot.set_webhook(await receiver.start(), max_connections=3)
    people = [open_server.add_user(f"P{n}") for n in range(5)]
    for person in people:
        person.start_bot()
        person.send_private("again")
    await open_server.wait_for(lambda: receiver.open == 3)
    await asyncio.sleep(0.2)
    assert receiver.most_open == 3  # three chats at once, never more
    release.set()
    await open_server.wait_for(lambda: not open_server.updates)
    by_chat: dict[int, list[int]] = {}
    for update, _ in receiver.got:
        by_chat.setdefault(update["message"]["chat"]["id"], []).append(update["update_id"])
    assert all(ids == sorted(ids) and len(ids) == 2 for ids in by_chat.values())


async def test_an_unreachable_webhook_is_recorded_and_updates_wait(
    open_server: FakeTelegram,
) -> None:
    async with Bot(TOKEN, base_url=open_server.base_url) as bot:
        await bot.set_webhook("http://127.0.0.1:9/hook")  # discard port: connection refused
        open_server.add_user("Alice").start_bot()
        await open_server.wait_for(lambda: open_server.webhook.last_error_message)
        info = await bot.get_webhook_info()
    assert info.pending_update_count == 1
    assert info.last_error_message is not None and "Connection" in info.last_error_message
