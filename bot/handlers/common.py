"""Helpers every handler uses: where a message came from, who is admin, how to refuse."""

from __future__ import annotations

import html
import json
import logging
import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from telegram import Chat, Message, Update, User
from telegram.constants import ChatType
from telegram.error import TelegramError

from bot import callbacks as cb
from bot import payload as typed
from bot.context import CustomContext
from bot.observe import note_answer, note_game, note_refusal
from bot.render.reader import Reader
from bot.settings_text import SETTING_NAMES
from engine.errors import RuleError
from engine.state import Game
from locales import supported
from storage.games import GameRef

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Where:
    """The chat, forum topic and person of an update."""

    chat: Chat
    topic_id: int
    user: User
    message: Message | None
    update_id: int

    @property
    def private(self) -> bool:
        return self.chat.type == ChatType.PRIVATE


def where(update: Update) -> Where | None:
    chat, user = update.effective_chat, update.effective_user
    if chat is None or user is None or user.is_bot:
        return None
    message = update.effective_message
    topic = 0
    if message is not None and message.is_topic_message and message.message_thread_id:
        topic = message.message_thread_id
    return Where(chat, topic, user, message, update.update_id)


async def remember(context: CustomContext, user: User) -> None:
    """Keep the person's name, username and language for mentions and translations.

    Written only when something changed since this process last saw the person.
    """
    svc = context.services
    seen = (user.full_name, user.username, user.language_code)
    if svc.seen_people.get(user.id) == seen:
        return
    await svc.store.people.upsert(user.id, *seen)
    svc.seen_people[user.id] = seen


async def is_admin(context: CustomContext, chat_id: int, user_id: int) -> bool:
    """From Telegram's admin list of the chat, cached for minutes (`bot/admins.py`)."""
    return await context.services.admins.is_admin(context.bot, chat_id, user_id)


async def say(
    context: CustomContext,
    w: Where,
    msg: str,
    args: dict[str, Any] | None = None,
    *,
    reply: bool = True,
    buttons: list[list[dict[str, Any]]] | None = None,
    tag: str = "",
    tz: str | None = None,
    labels: dict[str, str] | None = None,
    picture: str | None = None,
    game: int | None = None,
) -> None:
    """Answer where the update came from, through the outbox (times in `tz`; as a picture
    drawn from `args`, the text its caption); nothing while the flood guard holds this
    update's replies back (`bot/flood.py`). In a private chat, an answer about a `game`
    names it, as every private message of a game does."""
    note_answer(msg)
    context.flags.answered(msg)
    if context.flags.held_back:
        return
    if game is not None and w.private:
        args = {**(args or {}), "game": game, "game_label": await game_label(context, game)}
    await context.services.tell(
        w.chat.id,
        msg,
        args,
        topic_id=w.topic_id,
        user_id=w.user.id if w.private else None,
        reply_to_message_id=w.message.message_id if reply and w.message else None,
        buttons=buttons,
        key=f"u{w.update_id}:{msg}{tag}",
        tz=tz,
        labels=labels,
        picture=picture,
    )


async def refuse(
    context: CustomContext,
    w: Where,
    error: RuleError,
    tz: str | None = None,
    labels: dict[str, str] | None = None,
    game: int | None = None,
) -> None:
    """A rule error in the asker's language (times in the game's zone); nothing changed.
    In private, a refusal of a move in a `game` names it.

    In a group, the person's repeated refusals edit the first one's reply while it is
    recent and among the chat's last few messages (`bot/flood.py`), so they never pile up
    as new posts in the thread, nor go unseen in an edit far up it. Nothing while the flood
    guard holds this update's replies back.
    """
    msg, args = error_key(error), error_args(error)
    note_refusal(error.code)
    if context.flags.held_back:
        return
    if w.private:
        tag = f":{game}" if game is not None else ""  # one refusal per game
        await say(context, w, msg, args, tz=tz, labels=labels, game=game, tag=tag)
        return
    refusals = context.services.refusals
    place = (w.chat.id, w.topic_id, w.user.id)
    said = (msg, json.dumps(args, sort_keys=True, default=str))
    message_id = w.message.message_id if w.message is not None else None
    earlier = refusals.earlier(place, message_id)
    if earlier is None:
        await say(context, w, msg, args, tz=tz, labels=labels)
        refusals.posted(place, f"u{w.update_id}:{msg}", said, message_id)
    elif earlier.said != said:
        await context.services.tell(
            w.chat.id,
            msg,
            args,
            topic_id=w.topic_id,
            key=f"u{w.update_id}:{msg}:edit",
            tz=tz,
            labels=labels,
            edit_of=earlier.key,
        )
        earlier.said = said


async def game_label(context: CustomContext, game_id: int) -> str:
    """ "Title · Topic" of a game's chat ("" while unknown)."""
    store = context.services.store
    ref = await store.game(game_id)
    return await store.chats.label(ref.chat_id, ref.topic_id) if ref is not None else ""


def error_key(error: RuleError) -> str:
    if error.code == "invalid_setting" and "reason" in error.values:
        return f"invalid.{error.values['reason']}"
    if error.code == "invalid_pack" and "reason" in error.values:
        return f"pack.invalid_{error.values['reason']}"
    if error.code == "day_not_open" and error.values.get("window_closes_at"):
        return "error.day_not_open_until_window"
    if error.code == "day_not_open" and error.values.get("next_day_at"):
        return "error.day_not_open_soon"
    return f"error.{error.code}"


def error_args(error: RuleError) -> dict[str, Any]:
    """Rule-error values as typed arguments (a datetime → a Moment named *_at, a timedelta → a
    Span, a card, a category, the host, a setting's name)."""
    args: dict[str, Any] = {}
    for name, value in error.values.items():
        if isinstance(value, datetime):
            args[name if name.endswith("_at") else f"{name}_at"] = typed.Moment.of(value)
        elif isinstance(value, timedelta):
            args[name] = typed.Span.of(value)
        elif value is None:
            args[name] = None
        elif name == "card":
            args[name] = typed.Card(value)
        elif name == "category":
            args[name] = typed.Category(value)
        elif name == "host":
            args[name] = typed.User(value)
        elif name == "setting" and value in SETTING_NAMES:
            args[name] = typed.Setting(value)
        else:
            args[name] = value
    return args


async def game_here(context: CustomContext, w: Where) -> GameRef | None:
    return await context.services.store.game_for_chat(w.chat.id, w.topic_id)


async def require_game_here(context: CustomContext, w: Where) -> GameRef | None:
    """The chat's current game, or a clear answer that there is none."""
    ref = await game_here(context, w)
    if ref is None:
        await say(context, w, "error.no_game")
    return ref


async def answer_toast(
    context: CustomContext,
    update: Update,
    key: str,
    args: dict[str, Any] | None = None,
    *,
    alert: bool = False,
    tz: str = "UTC",
    labels: dict[str, str] | None = None,
) -> None:
    """A short answer to a button press, in the presser's language.

    While the flood guard holds this update's replies back, the press is answered with no
    text (the spinner stops); when this press is the one that starts a cooldown, with the
    flood notice instead (`bot/flood.py`).
    """
    query = update.callback_query
    if query is None:
        return
    note_answer(key)
    flags = context.flags
    flags.answered(key)
    if flags.held_back:
        if flags.quiet or flags.noticed:
            await answer_empty(update)
            return
        flags.noticed = True
        key, args, alert = "flood.toast", {"quiet": typed.Span(flags.cooldown_ahead)}, True
    svc = context.services
    language = await svc.directory.person_language(query.from_user.id)
    named = typed.users_in(typed.upgrade(args or {}))
    people = await svc.directory.persons(named)
    reader = Reader(supported(language), tz, people=people, labels=labels or {})
    text = svc.presentations.compose(reader, key, args or {})
    plain = re.sub(r"<[^>]+>", "", text)
    try:
        await query.answer(html.unescape(plain)[:200], show_alert=alert)
    except TelegramError:
        log.info("a button press could not be answered (too old)")


async def answer_empty(update: Update) -> None:
    """Answer a press with no text: the spinner stops, nothing is shown."""
    query = update.callback_query
    if query is None:
        return
    try:
        await query.answer()
    except TelegramError:
        log.info("a button press could not be answered (too old)")


@dataclass(frozen=True)
class Here:
    """An update in a chat that has a game: where it came from, the game's id and state."""

    w: Where
    game_id: int
    game: Game


async def game_update(update: Update, context: CustomContext) -> Here | None:
    """The update's place and its chat's current game, or a clear "no game here" (in
    private, where no game is played, "this works in a group")."""
    w = where(update)
    if w is None:
        return None
    await remember(context, w.user)
    if w.private:
        await say(context, w, "error.group_only")
        return None
    ref = await require_game_here(context, w)
    if ref is None:
        return None
    note_game(ref.id)
    return Here(w, ref.id, await context.services.store.load(ref.id))


@dataclass(frozen=True)
class Press:
    """A press of a game's button: where it came from, what its data says, the game's state."""

    w: Where
    data: cb.Callback
    game: Game


async def game_press(update: Update, context: CustomContext) -> Press | None:
    """A press of a game's button, the presser remembered; None (answered: out of date)
    when it carries no game's data or its game is not there."""
    query = update.callback_query
    w = where(update)
    data = cb.parse(query.data if query else None)
    if query is None or w is None or data is None:
        await answer_toast(context, update, "toast.stale")
        return None
    await remember(context, w.user)
    try:
        game = await context.services.store.load(data.game)
    except RuleError:  # no such game
        await answer_toast(context, update, "toast.stale", alert=True)
        return None
    return Press(w, data, game)


async def refuse_press(
    context: CustomContext, update: Update, error: RuleError, game: Game
) -> None:
    """The engine's refusal of a press, as an alert (in the game's zone and card names)."""
    await answer_toast(
        context,
        update,
        error_key(error),
        error_args(error),
        alert=True,
        tz=game.settings.timezone,
        labels=typed.labels_of(game.pack),
    )


async def group_update(update: Update, context: CustomContext) -> Where | None:
    """The update's place when it is a group or topic; in private, "this works in a group"."""
    w = where(update)
    if w is None:
        return None
    await remember(context, w.user)
    if w.private:
        await say(context, w, "error.group_only")
        return None
    return w


async def private_update(update: Update, context: CustomContext, deep_link: str) -> Where | None:
    """The update's place when it is the private chat; in a group, a button to go there."""
    w = where(update)
    if w is None:
        return None
    await remember(context, w.user)
    if not w.private:
        url = context.services.deep_link(deep_link)
        await say(
            context, w, "error.private_only", buttons=[[{"t": "button.open_private", "url": url}]]
        )
        return None
    return w
