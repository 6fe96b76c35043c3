"""The `whodunit` command line: `whodunit run`, `whodunit doctor`, `whodunit db upgrade`,
`whodunit db backup FILE`, `whodunit db restore FILE [--force]`, `whodunit demo`,
`whodunit ratings [--recompute]`."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import secrets
import sys

from bot.demo.options import FORMATS, LANGUAGES, MAX_PLAYERS, MIN_PLAYERS, Options


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
    ratings = sub.add_parser("ratings", help="check the stored ratings against the games' logs")
    ratings.add_argument("--recompute", action="store_true", help="and store the games' result")
    _demo_arguments(
        sub.add_parser(
            "demo",
            help="play a whole game with computer detectives against a fake Telegram (no token)",
            description="Plays a whole game through the real bot against the in-repo fake Bot "
            "API on this computer (no token, no network), every seat a computer detective, and "
            "prints the group thread and each player's private chat as they happen, then the "
            "story of the game.",
        )
    )
    args = parser.parse_args(argv)
    if args.command == "demo":
        return _demo(args)
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
    if args.command == "ratings":
        from bot.rating_command import run_ratings_command

        return run_ratings_command(config.database_url, args.recompute)
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
    from compiled import use_compiled_count

    use_compiled_count()  # the notebooks' and the computer detectives' count in machine code
    asyncio.run(run(build_application(config), config))
    return 0


def _demo_arguments(demo: argparse.ArgumentParser) -> None:
    demo.add_argument("--format", choices=FORMATS, default="forum", help="[forum]")
    demo.add_argument(
        "--players",
        type=int,
        choices=range(MIN_PLAYERS, MAX_PLAYERS + 1),
        default=4,
        metavar=f"{{{MIN_PLAYERS}..{MAX_PLAYERS}}}",
        help="how many play [4]",
    )
    demo.add_argument("--language", choices=LANGUAGES, default="en", help="[en]")
    demo.add_argument(
        "--speed",
        type=float,
        default=0.0,
        help="seconds of pause after each message: 0 prints as fast as the game goes, "
        "1 about reading speed [0]",
    )
    demo.add_argument("--seed", type=int, help="the same seed plays the same game [random]")


def _demo(args: argparse.Namespace) -> int:
    """`whodunit demo`: quiet logs (the transcript is the output), no settings read."""
    if args.speed < 0:
        print("whodunit demo: --speed is 0 or more seconds", file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.ERROR, format="%(levelname)s %(name)s: %(message)s")
    seed = args.seed if args.seed is not None else secrets.randbelow(1_000_000)
    options = Options(args.format, args.players, args.language, seed, args.speed)
    # Loads the whole bot: only once the arguments are read (`--help` stays quick).
    from bot.demo.play import run_demo
    from compiled import use_compiled_count  # numba: loaded only for a game, not for --help

    use_compiled_count()
    try:
        return run_demo(options)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader left (`| head`): nothing more to print to
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
