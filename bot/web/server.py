"""The aiohttp application of the bot's HTTP server, and running it."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from aiohttp import web

from bot.web.health import Health
from bot.web.webhook import WebhookReceiver

if TYPE_CHECKING:
    from bot.web.notebook_app import NotebookApp

log = logging.getLogger(__name__)

MAX_BODY = 1024**2  # an update is a few kilobytes; Telegram never posts files


def build_web_app(
    health: Health,
    *,
    webhook: WebhookReceiver | None = None,
    webhook_path: str = "/",
    notebook: NotebookApp | None = None,
) -> web.Application:
    """Routes: GET /healthz, /readyz, /metrics, POST `webhook_path` with a webhook, and the
    notebook Mini App's under /notebook/ with one."""
    app = web.Application(client_max_size=MAX_BODY)
    app.router.add_get("/healthz", health.healthz)
    app.router.add_get("/readyz", health.readyz)
    app.router.add_get("/metrics", health.metrics)
    if webhook is not None:
        app.router.add_post(webhook_path, webhook.receive)
    if notebook is not None:
        notebook.add_routes(app.router)
    return app


class HttpServer:
    """An aiohttp server on host:port; stopping it finishes requests under way first."""

    def __init__(
        self, app: web.Application, host: str, port: int, *, drain_seconds: float = 20.0
    ) -> None:
        self.host = host
        self.port = port
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=drain_seconds)
        self._started = False

    async def start(self) -> None:
        """Listen (port 0 picks a free port, then `port` tells which)."""
        await self._runner.setup()
        self._started = True
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        self.port = self._runner.addresses[0][1]
        log.info("HTTP server listening on %s:%s", self.host, self.port)

    async def stop(self) -> None:
        """Stop accepting connections, let requests under way finish (up to the drain
        time; later ones are cancelled and Telegram sends them again), then close."""
        if self._started:
            self._started = False
            await self._runner.cleanup()
