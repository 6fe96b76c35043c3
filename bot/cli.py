"""The `whodunit` command line: `whodunit run`, `whodunit db upgrade`."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys


def main(argv: list[str] | None = None) -> int:
    """Entry point of the console script."""
    parser = argparse.ArgumentParser(prog="whodunit", description="Cluedo game master bot")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("run", help="run the bot (long polling, or a webhook when one is set)")
    db = sub.add_parser("db", help="database maintenance")
    db.add_argument("action", choices=["upgrade"])
    args = parser.parse_args(argv)
    from bot.config import BotConfig, TokenError, WebhookError

    config = BotConfig()
    logging.basicConfig(
        level=config.log_level.upper(),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    from bot.logs import install

    install(config.bot_token.strip())  # before anything is logged: no token, no message body
    noisy = ["alembic", "apscheduler"]
    if config.log_level.upper() != "DEBUG":
        noisy.append("httpx")  # a line per request; at DEBUG they stay, without the token
    for name in noisy:
        logging.getLogger(name).setLevel(logging.WARNING)
    if args.command == "db":
        from storage.migrate import upgrade

        asyncio.run(upgrade(config.database_url))
        print("database is up to date")
        return 0
    try:
        config.require_token()
        config.require_webhook()
    except (TokenError, WebhookError) as error:
        print(f"whodunit: {error}", file=sys.stderr)
        return 2
    from bot.app import build_application
    from bot.web.serve import run

    asyncio.run(run(build_application(config), config))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
