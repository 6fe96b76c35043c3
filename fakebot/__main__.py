"""Run the fake Telegram server as a process: ``python -m fakebot --port 0 --port-file F``.

Drive it with :class:`fakebot.client.FakeTelegramClient`; stop it with SIGTERM/SIGINT.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import logging
import os
import signal
from pathlib import Path

from .control import add_control_routes
from .server import FakeTelegram


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Command-line options."""
    parser = argparse.ArgumentParser(prog="python -m fakebot", description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port")
    parser.add_argument("--token", default="123:ABC")
    parser.add_argument("--port-file", type=Path, help="write the port here once listening")
    parser.add_argument("--bot-username", default="whodunit_bot")
    parser.add_argument("--bot-id", type=int, default=1000)
    parser.add_argument(
        "--no-privacy", action="store_true", help="the bot sees every group message"
    )
    parser.add_argument(
        "--allow-http-webhooks",
        action="store_true",
        help="setWebhook takes http:// URLs on any port (for tests)",
    )
    parser.add_argument(
        "--exit-with-parent", action="store_true", help="stop when the launching process dies"
    )
    parser.add_argument(
        "--no-collector",
        action="store_true",
        help="the cyclic garbage collector off (benchmarks: a full collection over the stored"
        " messages stops every call for up to ~170 ms, counted as the bot's latency)",
    )
    parser.add_argument("-v", "--verbose", action="store_true")
    return parser.parse_args(argv)


async def serve(args: argparse.Namespace) -> None:
    """Run until SIGTERM or SIGINT."""
    server = FakeTelegram(
        args.token,
        bot_id=args.bot_id,
        bot_username=args.bot_username,
        privacy_mode=not args.no_privacy,
        host=args.host,
        port=args.port,
        allow_http_webhooks=args.allow_http_webhooks,
    )
    add_control_routes(server)  # driven from the test's process (FakeTelegramClient)
    await server.start()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    if args.exit_with_parent:
        watchdog = asyncio.create_task(_watch_parent(os.getppid(), stop))
    if args.port_file:
        tmp = args.port_file.with_suffix(".tmp")
        tmp.write_text(str(server.port))
        os.replace(tmp, args.port_file)
    print(
        f"fake Telegram listening on {server.url} (Bot API base_url {server.base_url})", flush=True
    )
    try:
        await stop.wait()
    finally:
        if args.exit_with_parent:
            watchdog.cancel()
        await server.stop()


async def _watch_parent(parent: int, stop: asyncio.Event) -> None:
    """Set ``stop`` once the parent process is gone (we get re-parented)."""
    while os.getppid() == parent:
        await asyncio.sleep(0.5)
    stop.set()


def main(argv: list[str] | None = None) -> None:
    """Entry point."""
    args = parse_args(argv)
    if args.no_collector:
        gc.disable()
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING)
    asyncio.run(serve(args))


if __name__ == "__main__":
    main()
