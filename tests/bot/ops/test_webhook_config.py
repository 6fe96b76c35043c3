"""Webhook settings: the mode, the route, the port and the secret's checks."""

from __future__ import annotations

from typing import Any

import pytest

from bot.config import BotConfig, WebhookError


def _config(**values: Any) -> BotConfig:
    return BotConfig(bot_token="1:A", _env_file=None, **values)  # type: ignore[call-arg]


def test_polling_has_no_http_server_unless_a_port_is_set() -> None:
    assert not _config().webhook_mode and _config().listen_port is None
    assert _config(http_port=9100).listen_port == 9100
    _config().require_webhook()  # nothing to check in polling mode


def test_the_route_comes_from_the_url_unless_set() -> None:
    hooked = _config(webhook_url="https://bot.example.org/tg/hook", webhook_secret="s")
    assert hooked.webhook_mode and hooked.listen_port == 8080
    assert hooked.webhook_route == "/tg/hook"
    assert _config(webhook_url="https://bot.example.org", webhook_secret="s").webhook_route == "/"
    rewritten = _config(webhook_url="https://x.org/a", webhook_secret="s", webhook_path="b")
    assert rewritten.webhook_route == "/b"


@pytest.mark.parametrize(
    ("url", "secret", "problem"),
    [
        ("https://bot.example.org/hook", None, "WHODUNIT_WEBHOOK_SECRET is not set"),
        ("https://bot.example.org/hook", "with space", "malformed"),
        ("https://bot.example.org/hook", "x" * 257, "malformed"),
        ("bot.example.org/hook", "good", "WHODUNIT_WEBHOOK_URL"),
    ],
)
def test_a_bad_webhook_setting_is_explained(url: str, secret: str | None, problem: str) -> None:
    with pytest.raises(WebhookError, match=problem):
        _config(webhook_url=url, webhook_secret=secret).require_webhook()


def test_a_good_secret_passes() -> None:
    _config(webhook_url="https://b.org/h", webhook_secret="A-z_09" * 40).require_webhook()
