"""The button that opens the notebook Mini App: a `web_app` button spec, rendered for Telegram,
accepted by the fake Bot API in a private chat only and over https only; and the Mini App is
served, with its URL known, only when the bot has a public https webhook URL."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer
from telegram import Bot
from telegram.error import BadRequest

from bot.app import build_application
from bot.config import BotConfig
from bot.render.keyboards import buttons_markup, keyboard
from bot.render.reader import Reader
from bot.web.health import Health
from bot.web.notebook_app import NotebookApp
from bot.web.serve import notebook_app_of
from bot.web.server import build_web_app
from fakebot import FakeTelegram
from locales import t

TOKEN = "123:ABC"
URL = "https://bot.example.org/notebook/?game=7"
SPEC = {"t": "button.notebook_app", "web_app": URL}


@pytest.fixture
async def server() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram(TOKEN) as fake:
        yield fake


@pytest.fixture
async def bot(server: FakeTelegram) -> AsyncIterator[Bot]:
    async with Bot(TOKEN, base_url=server.base_url) as client:
        yield client


def test_a_web_app_spec_renders_as_a_mini_app_button() -> None:
    rows = buttons_markup(Reader("en"), [[SPEC, {"t": "button.notebook_text", "data": "nb:7:t"}]])
    assert rows == [
        [
            {"text": t("en", "button.notebook_app"), "web_app": URL},
            {"text": t("en", "button.notebook_text"), "callback_data": "nb:7:t"},
        ]
    ]
    markup = keyboard(rows)
    assert markup is not None
    opens, text = markup.inline_keyboard[0]
    assert opens.web_app is not None and opens.web_app.url == URL and opens.callback_data is None
    assert text.web_app is None and text.callback_data == "nb:7:t"


async def test_the_fake_takes_a_mini_app_button_in_private_only(
    bot: Bot, server: FakeTelegram
) -> None:
    alice = server.add_user("Alice", username="alice")
    alice.start_bot()
    group = server.add_group("Cluedo club", admins=[alice])
    markup = keyboard(buttons_markup(Reader("en"), [[SPEC]]))
    await bot.send_message(alice.id, "📓", reply_markup=markup)
    [message] = alice.private_messages()
    assert message.find_button(t("en", "button.notebook_app"))["web_app"] == {"url": URL}
    assert message.buttons == [[(t("en", "button.notebook_app"), URL)]]
    with pytest.raises(BadRequest, match=r"(?i)button_type_invalid"):
        await bot.send_message(group.id, "📓", reply_markup=markup)
    plain = await bot.send_message(group.id, "📓")
    with pytest.raises(BadRequest, match=r"(?i)button_type_invalid"):
        await bot.edit_message_reply_markup(group.id, plain.message_id, reply_markup=markup)
    insecure = keyboard([[{"text": "📓", "web_app": "http://bot.example.org/notebook/"}]])
    with pytest.raises(BadRequest, match=r"(?i)button_url_invalid"):
        await bot.send_message(alice.id, "📓", reply_markup=insecure)


@pytest.mark.parametrize(
    ("webhook_url", "expected"),
    [
        (None, None),
        ("http://bot.example.org/hook", None),
        ("https://bot.example.org/telegram/hook", "https://bot.example.org/notebook/"),
        ("https://bot.example.org:8443/hook", "https://bot.example.org:8443/notebook/"),
        ("https://user:secret@bot.example.org/hook", "https://bot.example.org/notebook/"),
    ],
)
def test_the_mini_app_is_served_with_a_public_https_url_only(
    webhook_url: str | None, expected: str | None
) -> None:
    settings: dict[str, Any] = {"bot_token": TOKEN, "webhook_url": webhook_url}
    config = BotConfig(_env_file=None, webhook_secret="s3cret", **settings)  # type: ignore[call-arg]
    assert config.notebook_app_url == expected
    made = notebook_app_of(build_application(config), config)
    assert (made is None) == (expected is None)
    if made is not None:
        assert made.max_age == config.notebook_app_max_age_seconds


async def test_the_web_app_has_the_notebook_routes_only_when_given() -> None:
    health = Health(lambda: None)
    without = build_web_app(health)
    with_app = build_web_app(health, notebook=NotebookApp(lambda: None, TOKEN))
    for app, status in ((without, 404), (with_app, 200)):
        async with TestClient(TestServer(app)) as client:
            assert (await client.get("/notebook/")).status == status
            assert (await client.get("/healthz")).status == 200
