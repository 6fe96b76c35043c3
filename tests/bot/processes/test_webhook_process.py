"""`whodunit run` in webhook mode as its own process: a game starts through the webhook,
health answers, SIGTERM exits 0; run again in polling mode, the webhook is gone."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import time
from pathlib import Path

import httpx
import pytest

from fakebot import FakeTelegramClient
from tests.support.processes import bot_env, club_of_three, start_bot, stop_bot, whodunit_command

TOKEN = "123:ABC"
SECRET = "process-secret_1"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.parametrize(("secret", "problem"), [(None, "not set"), ("a:b", "malformed")])
def test_webhook_mode_without_a_good_secret_is_explained(
    tmp_path: Path, secret: str | None, problem: str
) -> None:
    extra = {"WHODUNIT_WEBHOOK_URL": "https://bot.example.org/hook"}
    if secret is not None:
        extra["WHODUNIT_WEBHOOK_SECRET"] = secret
    env = bot_env(TOKEN, "http://127.0.0.1:9/bot", f"sqlite:///{tmp_path}/x.db", **extra)
    result = subprocess.run(
        [*whodunit_command(), "run"], env=env, cwd=tmp_path, capture_output=True, text=True
    )
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "WHODUNIT_WEBHOOK_SECRET" in lines[0] and problem in lines[0]


@pytest.mark.slow
async def test_whodunit_run_with_a_webhook_then_polling_again(tmp_path: Path) -> None:
    fake = await FakeTelegramClient.launch(TOKEN, extra_args=["--allow-http-webhooks"])
    port = _free_port()
    web = f"http://127.0.0.1:{port}"
    database = f"sqlite:///{tmp_path}/bot.db"
    webhook = {
        "WHODUNIT_WEBHOOK_URL": f"{web}/tg/hook",
        "WHODUNIT_WEBHOOK_SECRET": SECRET,
        "WHODUNIT_HTTP_HOST": "127.0.0.1",
        "WHODUNIT_HTTP_PORT": str(port),
        "WHODUNIT_WEBHOOK_MAX_CONNECTIONS": "5",
    }
    bot: asyncio.subprocess.Process | None = None
    try:
        bot = await start_bot(bot_env(TOKEN, fake.base_url, database, **webhook), tmp_path)
        info = await fake.wait_for(lambda: _webhook_url(fake), timeout=30)
        assert info["url"] == f"{web}/tg/hook" and info["max_connections"] == 5
        assert "callback_query" in info["allowed_updates"]
        alice, bob, carol, group = await club_of_three(fake)
        await alice.send(group, "/newgame")
        lobby = await _bot_message(fake, group)
        for person in (bob, carol):
            assert (await person.press(lobby, "Join")).answered
        await alice.press(lobby, "Start the game")
        for person in (alice, bob, carol):
            await person.wait_private(lambda m: "Your cards" in m.text, timeout=15)
        deliveries = await fake.webhook_deliveries()
        assert deliveries and all(d["status"] == 200 for d in deliveries)
        assert not await fake.calls("getUpdates")
        async with httpx.AsyncClient(base_url=web) as http:
            assert (await http.get("/healthz")).status_code == 200
            assert (await http.get("/readyz")).text == "ready"
            forged = await http.post("/tg/hook", json={"update_id": 1})
            assert forged.status_code == 403
    except BaseException:
        print(await stop_bot(bot) if bot is not None else "the bot did not start")
        raise
    output = await stop_bot(bot)
    assert bot.returncode == 0, output
    try:
        # Back to polling: the webhook is removed before the first getUpdates.
        bot = await start_bot(bot_env(TOKEN, fake.base_url, database), tmp_path)
        await fake.wait_for(lambda: fake.calls("deleteWebhook"), timeout=30)
        info = (await fake.bot_api(TOKEN, "getWebhookInfo"))["result"]
        assert info["url"] == ""
        sent = time.time()
        await carol.send(group, "/status")  # answered: the updates come by getUpdates now
        await fake.wait_call(after=sent, chat_id=group.id, timeout=15)
    finally:
        output = await stop_bot(bot)
        await fake.aclose()
    assert bot.returncode == 0, output


async def _webhook_url(fake: FakeTelegramClient) -> dict[str, object] | None:
    info: dict[str, object] = (await fake.bot_api(TOKEN, "getWebhookInfo"))["result"]
    return info if info["url"] else None


async def _bot_message(fake, group, timeout: float = 15.0):  # type: ignore[no-untyped-def]
    async def check():  # type: ignore[no-untyped-def]
        found = [m for m in await group.messages() if m.from_user_id == 1000 and m.buttons]
        return found[0] if found else None

    return await fake.wait_for(check, timeout)
