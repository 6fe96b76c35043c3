"""Questions anyone may ask: /status, /cards, /log, /rules, /help. Public facts only."""

from __future__ import annotations

from telegram import Update
from telegram.ext import ApplicationHandlerStop

from bot.announce.turn_card import turn_cards
from bot.announce.views import log_entries, status_args, table_status_args
from bot.context import CustomContext
from bot.handlers.common import game_here, game_update, remember, say, where
from bot.handlers.mentions import mentions
from bot.handlers.player_log import show_player_log
from bot.payload import cards_listing, labels_of
from bot.settings_text import SettingInputError, parse_whole_number
from engine.format import format_of
from engine.state import Phase


async def status(update: Update, context: CustomContext) -> None:
    """/status: the day, its end, quotas left and answers pending (in a classic game: the
    turn, its step and the board), and whether the game's index could not be pinned;
    nothing secret."""
    here = await game_update(update, context)
    if here is None:
        return
    w, game = here.w, here.game
    if format_of(game).plays_turns(game) and game.phase is Phase.RUNNING:
        await say(
            context,
            w,
            "status.table",
            table_status_args(game, context.presentations.edition_of(game).board(game)),
        )
        return
    unpinned = await context.services.store.index_pins.refusal(here.game_id) is not None
    await say(context, w, "status.game", {**status_args(game), "index_unpinned": unpinned})


async def cards(update: Update, context: CustomContext) -> None:
    """/cards: every card in play by category (in the lobby: the pack)."""
    here = await game_update(update, context)
    if here is None:
        return
    w, game = here.w, here.game
    listing = cards_listing(game.pack.cards_of if game.phase is Phase.LOBBY else game.in_play)
    await say(
        context, w, "cards.list", {"cards": listing, "in_play": game.phase is not Phase.LOBBY}
    )


async def rules(update: Update, context: CustomContext) -> None:
    w = where(update)
    if w is not None:
        await remember(context, w.user)
        key = "rules.text"
        ref = None if w.private else await game_here(context, w)
        if ref is not None:  # the rules of the format this chat's game is played in
            key = context.presentations.edition_of(await context.services.store.load(ref.id)).rules
        if context.args:  # /rules liars, /rules 2023: an edition's rules, asked by name
            key = context.presentations.rules_by_word(context.args[0]) or key
        await say(context, w, key, reply=False)


HELP_TOPICS = ("admin", "table")  # `/help admin`, `/help table`: what a player rarely needs


async def help_command(update: Update, context: CustomContext) -> None:
    """/help: a player's few commands (the group's or the private chat's); /help admin and
    /help table: the rest."""
    w = where(update)
    if w is not None:
        await remember(context, w.user)
        word = (context.args or [""])[0].casefold()
        if word in HELP_TOPICS:
            key = f"help.{word}"
        else:
            key = "help.private" if w.private else "help.group"
        await say(context, w, key, reply=False)


async def chatter(update: Update, context: CustomContext) -> None:
    """Everything else in the thread is flood: ignored, but its authors become known by name."""
    w = where(update)
    if w is not None:
        await remember(context, w.user)


async def not_understood(update: Update, context: CustomContext) -> None:
    """What no other handler took: anything written to the bot in private, or a command in
    a group that names the bot ("/nonsense@whodunit_bot") but is none of its own. A short
    answer pointing at /help; another bot's commands in a group get none."""
    w = where(update)
    if w is None or w.message is None:
        return
    if not w.private:
        await remember(context, w.user)
        command = (w.message.text or "").split(maxsplit=1)[0]  # a group's: a command's text
        if not command.lower().endswith("@" + context.services.bot_username.lower()):
            return
    await say(context, w, "reply.not_understood", reply=not w.private)


async def log_command(update: Update, context: CustomContext) -> None:
    """/log [day]: the public log of a day — suggestions and how they were answered (at the
    table: every turn's card);
    /log @player: that player's public history in the game (`bot/handlers/player_log.py`)."""
    here = await game_update(update, context)
    if here is None:
        return
    w, game = here.w, here.game
    named = await mentions(context, w.message) if w.message is not None else []
    if named:
        await show_player_log(context, w, game, named[0])
        return
    if format_of(game).plays_turns(game):  # at the table: every turn's card
        cards = turn_cards(
            await context.services.store.events(here.game_id),
            context.presentations.card_lines_of(game),
        )
        await say(context, w, "log.table", {"cards": cards}, labels=labels_of(game.pack))
        return
    if game.phase is Phase.LOBBY:  # no day has begun to tell of
        await say(context, w, "error.game_not_running")
        return
    words = context.args or []
    day = game.day
    if words:
        try:
            day = parse_whole_number(words[0])
        except SettingInputError:
            day = 0
        if not 1 <= day <= max(game.day, 1):
            await say(context, w, "log.bad_day", {"last": max(game.day, 1)})
            return
    entries = log_entries(game, day)
    await say(context, w, "log.day", {"day": day, "entries": entries}, labels=labels_of(game.pack))


async def chat_migrated(update: Update, context: CustomContext) -> None:
    """A group became a supergroup (new chat id): its games, defaults and owed posts follow.

    Telegram tells both chats (migrate_to_chat_id in the old, migrate_from_chat_id in the
    new); either one moves everything, the other then finds nothing left to move."""
    message = update.effective_message
    if message is None:
        return
    if message.migrate_to_chat_id:
        old, new = message.chat.id, message.migrate_to_chat_id
    elif message.migrate_from_chat_id:
        old, new = message.migrate_from_chat_id, message.chat.id
    else:
        return
    svc = context.services
    if (await svc.store.chats.migrate(old, new)).outbox:
        svc.outbox_ready.set()


async def anonymous_admin(update: Update, context: CustomContext) -> None:
    """A command sent as the group itself (an anonymous admin): say who can be heard."""
    message = update.effective_message
    chat = update.effective_chat
    if message is None or chat is None:
        return
    topic = message.message_thread_id if message.is_topic_message else 0
    await context.services.tell(
        chat.id,
        "error.anonymous_admin",
        topic_id=topic or 0,
        reply_to_message_id=message.message_id,
        key=f"u{update.update_id}:anonymous",
    )
    raise ApplicationHandlerStop
