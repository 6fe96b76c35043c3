"""The `whodunit` command line: `whodunit run`, `whodunit doctor`, `whodunit db upgrade`,
`whodunit db backup FILE`, `whodunit db restore FILE [--force]`."""

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
    db.add_argument("action", choices=["upgrade", "backup", "restore"])
    db.add_argument("file", nargs="?", help="the backup file (backup, restore)")
    db.add_argument("--force", action="store_true", help="restore over a non-empty database")
    sub.add_parser("doctor", help="check the token, database, webhook, clock and chat rights")
    args = parser.parse_args(argv)
    # Each command imports what it runs, once its arguments are read: `--help` loads none
    # of the bot, `db` and `doctor` neither its handlers nor its web server (no import
    # circle is dodged here).
    from bot.config import BotConfig, TokenError, WebhookError

    config = BotConfig()
    logging.basicConfig(
        level=config.log_level.upper(),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    from bot.logs import install, use_json

    if config.log_format == "json":
        use_json()

    install(config.bot_token.strip())  # before anything is logged: no token, no message body
    noisy = ["alembic", "apscheduler"]
    if config.log_level.upper() != "DEBUG":
        noisy.append("httpx")  # a line per request; at DEBUG they stay, without the token
    for name in noisy:
        logging.getLogger(name).setLevel(logging.WARNING)
    if args.command == "doctor":
        from bot.doctor import doctor

        return asyncio.run(doctor(config))
    if args.command == "db" and args.action in ("backup", "restore"):
        from bot.backup import run_backup_command

        return run_backup_command(config, args.action, args.file, force=args.force)
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
