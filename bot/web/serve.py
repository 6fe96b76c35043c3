"""Running the bot: webhook mode (the HTTP server takes updates), or polling beside it."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import signal

from bot.config import BotConfig
from bot.context import App
from bot.heap import settle_startup_objects
from bot.intake import ALLOWED_UPDATES, PRUNE_EVERY, begin_shutdown, serve
from bot.services import Services
from bot.shutdown import close_application
from bot.switching import hand_over_quickly
from bot.web.health import Health
from bot.web.notebook_app import NotebookApp
from bot.web.server import HttpServer, build_web_app
from bot.web.webhook import WebhookReceiver
from storage.database import Database

log = logging.getLogger(__name__)


def health_of(application: App) -> Health:
    """Health answers about this Application's database (none until it has started)."""

    def database() -> Database | None:
        services: Services | None = application.bot_data.get("services")
        return services.store.db if services is not None else None

    return Health(database)


def notebook_app_of(application: App, config: BotConfig) -> NotebookApp | None:
    """The notebook Mini App when the bot has a public https URL (None otherwise)."""
    if config.notebook_app_url is None:
        return None
    return NotebookApp(
        lambda: application.bot_data.get("services"),
        application.bot.token,
        max_age=config.notebook_app_max_age_seconds,
    )


async def run(application: App, config: BotConfig) -> None:
    """`whodunit run`: webhook mode when a webhook URL is set, else long polling."""
    frozen = settle_startup_objects()
    log.debug("%d objects of start-up left out of later garbage collections", frozen)
    hand_over_quickly()
    if config.webhook_mode:
        await serve_webhook(application, config)
    else:
        await serve_polling(application, config)


async def serve_polling(application: App, config: BotConfig) -> None:
    """Long polling (it removes any webhook first); the HTTP server beside it if a port
    is set, for health checks and metrics."""
    port = config.listen_port
    polling = functools.partial(
        serve,
        application,
        shutdown_seconds=config.shutdown_seconds,
        receive_updates=config.receive_updates,
    )
    if port is None:
        await polling()
        return
    server = HttpServer(build_web_app(health_of(application)), config.http_host, port)
    await server.start()
    try:
        await polling()
    finally:
        await server.stop()


async def serve_webhook(
    application: App, config: BotConfig, *, ready: asyncio.Event | None = None
) -> None:
    """Until SIGTERM or SIGINT: start up, listen, register the webhook; then stop taking
    requests, finish those under way, and shut down (as `serve` does for polling)."""
    config.require_webhook()
    stop = asyncio.Event()
    health = health_of(application)
    receiver = WebhookReceiver(application, config.webhook_secret or "")
    port = config.listen_port
    assert port is not None, "webhook mode always has a port"
    app = build_web_app(
        health,
        webhook=receiver,
        webhook_path=config.webhook_route,
        notebook=notebook_app_of(application, config),
    )
    # Requests under way get half the shutdown budget (as polling's updates in flight do).
    drain = max(0.5, config.shutdown_seconds - 1.0) * 0.5
    server = HttpServer(app, config.http_host, port, drain_seconds=drain)

    def on_signal() -> None:
        if not stop.is_set():
            begin_shutdown(application, config.shutdown_seconds, None)
            stop.set()

    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, on_signal)
    await application.initialize()
    pruning: asyncio.Task[None] | None = None
    try:
        if application.post_init is not None:
            await application.post_init(application)
        await application.start()
        await server.start()  # listening before Telegram is told where to post
        await register_webhook(application, config)
        pruning = asyncio.create_task(prune_handled_updates(application, stop))
        if ready is not None:
            ready.set()
        await stop.wait()
        log.info("stopping")
        health.stopping = True
        await server.stop()
    finally:
        stop.set()
        await server.stop()
        if pruning is not None:
            await pruning
        await close_application(application)


async def register_webhook(application: App, config: BotConfig) -> None:
    """setWebhook: the URL, the secret, the update types the bot handles, the connections."""
    url = (config.webhook_url or "").strip()
    await application.bot.set_webhook(
        url=url,
        secret_token=config.webhook_secret,
        allowed_updates=list(ALLOWED_UPDATES),
        max_connections=config.webhook_max_connections,
    )
    log.info("webhook set; Telegram posts updates to %s", url)


async def prune_handled_updates(application: App, stop: asyncio.Event) -> None:
    """Forget handled update ids older than Telegram could send again, now and then."""
    while not stop.is_set():
        services: Services | None = application.bot_data.get("services")
        if services is not None:
            try:
                gone = await services.store.updates.prune(services.now())
            except Exception:
                log.warning("could not prune handled updates", exc_info=True)
            else:
                if gone:
                    log.info("forgot %d old handled updates", gone)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), PRUNE_EVERY)
