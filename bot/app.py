"""The python-telegram-bot Application: handlers, the sender and the scheduler, wired."""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import Callable, Coroutine
from datetime import timedelta
from typing import Any

from telegram import (
    BotCommand,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    Update,
)
from telegram.ext import (
    Application,
    CallbackQueryHandler,
    ChatMemberHandler,
    CommandHandler,
    JobQueue,
    MessageHandler,
    TypeHandler,
    filters,
)

from bot import callbacks as cb
from bot.admins import AdminCache
from bot.config import BotConfig
from bot.context import CONTEXT_TYPES, App, CustomContext
from bot.delivery.auto_limiter import AutoSharedLimiter
from bot.delivery.limiter import OutboundLimiter
from bot.delivery.limiters import describe, make_limiter
from bot.delivery.request_limiter import RequestLimiter
from bot.delivery.sender import Sender
from bot.editions.base import Edition
from bot.editions.presentations import Presentations
from bot.editions.registry import EDITIONS
from bot.failures import answer_failure
from bot.flood import FloodGate, FloodGuard, Limits
from bot.handlers import (
    admin,
    arrival,
    edits,
    info,
    lobby,
    membership,
    moves,
    notebook,
    packs,
    places,
    preferences,
    presence,
    private,
    records,
    settings_menu,
    table,
)
from bot.handlers.common import answer_toast
from bot.handlers.edition_buttons import BUTTONS
from bot.handlers.ratings import add_rating_handlers
from bot.http import AiohttpRequest
from bot.metrics import DatabaseGauges
from bot.observe import Observer
from bot.refusals import RepeatedRefusals
from bot.scheduler import Scheduler, worker_name
from bot.services import Seeds, Services, fresh_seed
from bot.shutdown import post_shutdown, post_stop
from bot.updates import KeyedUpdateProcessor
from engine import REGISTRY
from engine.registry import Registry
from locales import LANGUAGES, t
from storage.service import Store

log = logging.getLogger(__name__)

GROUP_COMMANDS = (
    "newgame",
    "join",
    "startgame",
    "suggest",
    "status",
    "cards",
    "rules",
    "help",
    "settings",
    "stats",
    "top",
)
PRIVATE_COMMANDS = (
    "suggest",
    "accuse",
    "hand",
    "notebook",
    "mark",
    "away",
    "back",
    "standing",
    "games",
    "reminders",
    "language",
    "timezone",
    "help",
    "rules",
    "me",
)
BOT_MEMBERSHIP_GROUP = 1  # handler group of my_chat_member (see add_handlers)


def build_application(
    config: BotConfig,
    seeds: Seeds = fresh_seed,
    editions: tuple[Edition, ...] = EDITIONS,
    registry: Registry = REGISTRY,
) -> App:
    """An Application that runs unchanged against Telegram or any Bot API server, playing
    the formats of the engine's `registry` and showing the games of `editions` (the shipped
    ones; a test may add its own to both)."""
    token = config.require_token()
    processor = KeyedUpdateProcessor(config.concurrent_updates)
    # One limiter for every send and edit: the sender's (through the outbox) and the few
    # calls handlers make themselves, shared by all workers (Redis or PostgreSQL) when there
    # may be several. Its clock becomes the services' once they exist.
    limiter = make_limiter(
        config.limits(),
        time.time,
        redis_url=config.redis_url,
        db_url=config.database_url,
        shared=config.shared_limiter,
        horizon=2 * config.send_timeout_seconds + 10,
    )
    application = (
        Application.builder()
        .token(token)
        .context_types(CONTEXT_TYPES)
        .job_queue(JobQueue[CustomContext]())
        .base_url(config.api_base_url)
        .request(AiohttpRequest(config.api_connections))
        .get_updates_request(AiohttpRequest(1))
        .base_file_url(config.api_base_url.removesuffix("/bot") + "/file/bot")
        .rate_limiter(RequestLimiter(limiter, lambda: limiter.clock()))
        .concurrent_updates(processor)
        .post_init(_post_init(config, seeds, Presentations(editions), registry))
        .post_stop(post_stop)
        .post_shutdown(post_shutdown)
        .build()
    )
    gate = FloodGate(application, FloodGuard(_limits(config)))
    processor.admit, processor.handled = gate, gate.handled
    application.bot_data["flood_gate"] = gate
    application.bot_data["limiter"] = limiter
    add_handlers(application)
    processor.observer = Observer(_command_names(application))
    return application


def _command_names(application: App) -> set[str]:
    """The commands the handlers know (so far), for the update log and metrics and the
    handler of edited commands."""
    return {
        name
        for handlers in application.handlers.values()
        for handler in handlers
        if isinstance(handler, CommandHandler)
        for name in handler.commands
    }


def _limits(config: BotConfig) -> Limits:
    return Limits(
        group=config.flood_group_limit,
        private=config.flood_private_limit,
        window=config.flood_window_seconds,
        sustained=config.flood_group_sustained_limit,
        long_window=config.flood_long_window_seconds,
        cooldown=config.flood_cooldown_seconds,
    )


def add_handlers(application: App) -> None:
    commands = {
        "newgame": lobby.new_game,
        "startgame": lobby.start_game,
        "join": lobby.join_with_role,
        "leave": lobby.leave,
        "suggest": moves.suggest,
        "accuse": moves.accuse,
        "status": info.status,
        "cards": info.cards,
        "log": info.log_command,
        "stats": records.stats,
        "rules": info.rules,
        "help": info.help_command,
        "start": private.start,
        "hand": private.hand,
        "notebook": notebook.notebook,
        "away": presence.away,
        "back": presence.back,
        "standing": presence.standing,
        "mark": notebook.mark,
        "games": private.my_games,
        "reminders": private.reminders,
        "settings": admin.settings,
        "pause": admin.pause,
        "resume": admin.resume,
        "extend": admin.extend,
        "void": admin.void,
        "remove": admin.remove,
        "replace": admin.replace,
        "endgame": admin.end_game,
        "language": preferences.language,
        "timezone": preferences.timezone,
        "pack": packs.pack,
    }
    fresh = ~filters.UpdateType.EDITED  # editing an old command must not run it again
    as_the_group = filters.SenderChat.SUPER_GROUP & filters.COMMAND & fresh
    # Each in a group of its own: in one group only the first matching handler runs, and
    # note_names (a TypeHandler of every update) would shadow the others.
    application.add_handler(TypeHandler(Update, places.note_names), group=-3)
    members = ChatMemberHandler(_members_changed, ChatMemberHandler.ANY_CHAT_MEMBER)
    application.add_handler(members, group=-2)
    application.add_handler(MessageHandler(as_the_group, info.anonymous_admin), group=-1)
    for name, callback in commands.items():
        application.add_handler(CommandHandler(name, callback, filters=fresh))
    add_rating_handlers(application)  # /top, /me and the /me buttons
    # An edited command runs nothing: its author is told once, in private (bot/handlers/edits).
    # Every command handled above, so a command added elsewhere is covered too.
    edited = filters.UpdateType.EDITED_MESSAGE
    names = sorted(_command_names(application))
    application.add_handler(CommandHandler(names, edits.edited_command, filters=edited))
    lobby_kinds = f"^({cb.JOIN}|{cb.LEAVE}|{cb.START}|{cb.CHARACTER}|{cb.DETECTIVE}):"
    answer_kinds = f"^({cb.REFUTE}|{cb.NO_REFUTATION}):"
    composer_kinds = f"^({cb.SUGGEST}|{cb.SUGGEST_SEND}|{cb.ACCUSE}|{cb.ACCUSE_SEND}|{cb.CANCEL}):"
    application.add_handler(CallbackQueryHandler(lobby.lobby_button, pattern=lobby_kinds))
    application.add_handler(CallbackQueryHandler(private.answer_button, pattern=answer_kinds))
    application.add_handler(CallbackQueryHandler(moves.composer_button, pattern=composer_kinds))
    table_kinds = f"^({cb.TURN}|{cb.SHOW}|{cb.BACK}):"
    application.add_handler(CallbackQueryHandler(table.table_button, pattern=table_kinds))
    menu = CallbackQueryHandler(settings_menu.menu_button, pattern=f"^{cb.SETTINGS_MENU}:")
    application.add_handler(menu)
    pointer = CallbackQueryHandler(settings_menu.open_button, pattern=f"^{cb.SETTINGS_OPEN}:")
    application.add_handler(pointer)
    pages = CallbackQueryHandler(notebook.notebook_button, pattern=f"^{cb.NOTEBOOK}:")
    application.add_handler(pages)
    wanted = CallbackQueryHandler(presence.replacement_button, pattern=f"^{cb.REPLACEMENT}:")
    application.add_handler(wanted)
    preference_kinds = f"^({cb.PERSON_LANGUAGE}|{cb.PERSON_ZONE}):"
    preference = CallbackQueryHandler(preferences.preference_button, pattern=preference_kinds)
    application.add_handler(preference)
    intro = CallbackQueryHandler(arrival.language_button, pattern=f"^{cb.CHAT_LANGUAGE}:")
    application.add_handler(intro)
    for kinds, press in BUTTONS:  # each edition's own buttons besides its turn prompt's
        application.add_handler(CallbackQueryHandler(press, pattern=f"^({'|'.join(kinds)}):"))
    application.add_handler(CallbackQueryHandler(_unknown_button))
    application.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, info.chat_migrated))
    chatter = MessageHandler(filters.ChatType.GROUPS & ~filters.COMMAND, info.chatter)
    application.add_handler(chatter)
    # Last of its group: only what no handler above took (an unknown command, in private
    # anything else too).
    unknown = (filters.ChatType.PRIVATE | filters.COMMAND) & filters.UpdateType.MESSAGE
    application.add_handler(MessageHandler(unknown, info.not_understood))
    # In a group of its own, so another my_chat_member handler does not shadow it.
    mine = ChatMemberHandler(membership.bot_membership, ChatMemberHandler.MY_CHAT_MEMBER)
    application.add_handler(mine, group=BOT_MEMBERSHIP_GROUP)
    application.add_error_handler(answer_failure)


async def _unknown_button(update: Update, context: CustomContext) -> None:
    await answer_toast(context, update, "toast.stale")


async def _members_changed(update: Update, context: CustomContext) -> None:
    """Someone was promoted, demoted, joined or left: the chat's admin list is re-read."""
    if update.effective_chat is not None:
        context.services.admins.forget(update.effective_chat.id)


def _another_worker(store: Store, limiter: OutboundLimiter) -> None:
    """Another worker serves this bot: copies are timed, and limits shared when automatic."""
    store.freshness.share()
    if isinstance(limiter, AutoSharedLimiter):
        limiter.share()
    log.info("another worker is alive: people, chats and open games are re-read in time")


def _post_init(
    config: BotConfig, seeds: Seeds, presentations: Presentations, registry: Registry
) -> Callable[[App], Coroutine[Any, Any, None]]:
    async def post_init(application: App) -> None:
        store = await Store.open(config.database_url, registry=registry)
        me = await application.bot.get_me()
        services = Services(
            store=store,
            presentations=presentations,
            bot_username=me.username or "whodunit_bot",
            default_language=config.default_language,
            notebook_app_url=config.notebook_app_url,
            admins=AdminCache(config.admin_cache_seconds),
            refusals=RepeatedRefusals(config.refusal_edit_seconds),
            seeds=seeds,
        )
        application.bot_data["services"] = services
        worker = worker_name()
        stop = asyncio.Event()
        limiter: OutboundLimiter = application.bot_data["limiter"]
        limiter.clock = lambda: services.now().timestamp()  # deferrals use the same clock
        sender = Sender(
            services,
            application.bot,
            worker,
            limiter,
            send_timeout=config.send_timeout_seconds,
            keep_sent=timedelta(days=config.outbox_keep_days),
        )
        application.bot_data["sender"] = sender
        services.hand_over = sender.hand_over  # a command's messages go straight to it
        store.claim_for = worker
        application.bot_data["worker"] = worker
        application.bot_data["stop"] = stop
        application.bot_data["sender_task"] = asyncio.create_task(sender.run(stop))
        scheduler = Scheduler(services, worker, sweep_every=config.sweep_seconds)
        # Alone until another worker's heartbeat is seen: people, chats and open games are
        # then kept with no time limit (unless the limits are shared from the start, as
        # several workers are meant to run).
        store.freshness.alone = not (config.shared_limiter or config.redis_url)
        scheduler.on_peer = functools.partial(_another_worker, store, limiter)
        await scheduler.start(application)
        application.bot_data["scheduler"] = scheduler
        gauges = DatabaseGauges(store.db, services.now)
        gauges.start()
        application.bot_data["metrics"] = gauges
        await _set_commands(application)
        log.info(
            "whodunit is running as @%s (worker %s, send limits counted in %s)",
            me.username,
            worker,
            describe(limiter),
        )

    return post_init


async def _set_commands(application: App) -> None:
    for language in LANGUAGES:
        code = "" if language == "en" else language
        for scope, names in (
            (BotCommandScopeAllGroupChats(), GROUP_COMMANDS),
            (BotCommandScopeAllPrivateChats(), PRIVATE_COMMANDS),
        ):
            commands = [BotCommand(n, t(language, f"command.{n}")) for n in names]
            await application.bot.set_my_commands(commands, scope=scope, language_code=code or None)
