"""The real bot in webhook mode, in this event loop: the fake Bot API posts to it."""

from __future__ import annotations

from bot.intake import ALLOWED_UPDATES
from bot.shutdown import close_application
from bot.web.serve import health_of
from bot.web.server import HttpServer, build_web_app
from bot.web.webhook import WebhookReceiver
from tests.support.harness import BotHarness

SECRET = "s3cret-Token_for-tests"
PATH = "/telegram/hook"


class WebhookHarness(BotHarness):
    """BotHarness with the bot's HTTP server and setWebhook instead of long polling.

    The fake must allow http webhooks (``FakeTelegram(allow_http_webhooks=True)``).
    """

    async def start(self) -> None:
        await self.app.initialize()
        assert self.app.post_init is not None
        await self.app.post_init(self.app)
        if not self.real_time:
            self.services.clock = self.clock.now
        await self.app.start()
        self.receiver = WebhookReceiver(self.app, SECRET)
        self.health = health_of(self.app)
        app = build_web_app(self.health, webhook=self.receiver, webhook_path=PATH)
        self.http = HttpServer(app, "127.0.0.1", 0, drain_seconds=5)
        await self.http.start()
        self.url = f"http://127.0.0.1:{self.http.port}"
        await self.app.bot.set_webhook(
            f"{self.url}{PATH}", secret_token=SECRET, allowed_updates=list(ALLOWED_UPDATES)
        )

    async def stop(self) -> None:
        if not self.app.running:
            return
        await self.http.stop()
        await close_application(self.app)
