"""Admin commands (chat admins only, asked of Telegram): settings, pause, resume, extend,
void, remove, replace, end, language."""

from __future__ import annotations

import re

from telegram import Message, Update
from telegram.constants import MessageEntityType
from telegram.ext import ContextTypes

from bot.delivery.payload import Setting
from bot.handlers.common import (
    Where,
    game_here,
    group_update,
    is_admin,
    refuse,
    require_game_here,
    say,
    services,
)
from bot.settings_text import (
    SETTING_NAMES,
    SettingInputError,
    parse_duration,
    parse_setting,
)
from engine import commands as cmd
from engine.codec import to_dict
from engine.errors import RuleError
from engine.settings import change_chat_defaults
from engine.state import Phase
from locales import LANGUAGES


async def _admin_here(update: Update, context: ContextTypes.DEFAULT_TYPE) -> Where | None:
    """The update's place if it comes from a chat admin in a group; else a clear refusal."""
    w = await group_update(update, context)
    if w is None:
        return None
    if not await is_admin(context, w.chat.id, w.user.id):
        await refuse(context, w, RuleError("admin_only"))
        return None
    return w


def _args(w: Where) -> list[str]:
    text = (w.message.text if w.message else "") or ""
    return text.split()[1:]


async def _run_admin(context: ContextTypes.DEFAULT_TYPE, w: Where, command: cmd.Command) -> None:
    ref = await require_game_here(context, w)
    if ref is None:
        return
    try:
        await services(context).run(ref.id, command)
    except RuleError as error:
        await refuse(context, w, error)


def _admin(w: Where) -> dict[str, object]:
    return {"actor": w.user.id, "actor_is_admin": True}


async def pause(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    if (w := await _admin_here(update, context)) is not None:
        await _run_admin(context, w, cmd.PauseGame(**_admin(w)))  # type: ignore[arg-type]


async def resume(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    if (w := await _admin_here(update, context)) is not None:
        await _run_admin(context, w, cmd.ResumeGame(**_admin(w)))  # type: ignore[arg-type]


async def end_game(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    if (w := await _admin_here(update, context)) is not None:
        await _run_admin(context, w, cmd.EndGame(**_admin(w)))  # type: ignore[arg-type]


async def extend(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/extend 2h: the current day gets more time."""
    if (w := await _admin_here(update, context)) is None:
        return
    try:
        by = parse_duration(" ".join(_args(w)))
    except SettingInputError as error:
        if error.reason == "too_large":
            await say(context, w, "error.extension_too_large", error.values)
        else:
            await say(context, w, "error.invalid_extension")
        return
    await _run_admin(context, w, cmd.ExtendDay(**_admin(w), by=by))  # type: ignore[arg-type]


async def void(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/void, as a reply to the bot's post of the suggestion."""
    if (w := await _admin_here(update, context)) is None:
        return
    ref = await require_game_here(context, w)
    if ref is None:
        return
    replied = w.message.reply_to_message if w.message else None
    svc = services(context)
    suggestion = None
    if replied is not None:
        key = await svc.store.message_key(w.chat.id, replied.message_id)
        found = re.fullmatch(rf"g{ref.id}:s(\d+)", key or "")
        suggestion = int(found[1]) if found else None
    if suggestion is None:
        await say(context, w, "error.void_needs_reply")
        return
    await _run_admin(context, w, cmd.VoidSuggestion(**_admin(w), suggestion=suggestion))  # type: ignore[arg-type]


async def _named_people(context: ContextTypes.DEFAULT_TYPE, message: Message) -> list[int]:
    """People named in a message: @usernames, text mentions, or the replied-to author."""
    svc = services(context)
    found: list[int] = []
    for entity, text in message.parse_entities().items():
        if entity.type == MessageEntityType.TEXT_MENTION and entity.user is not None:
            found.append(entity.user.id)
        elif entity.type == MessageEntityType.MENTION:
            user_id = await svc.directory.user_by_username(text.lstrip("@"))
            if user_id is not None:
                found.append(user_id)
    replied = message.reply_to_message
    topic_start = replied is not None and (
        replied.forum_topic_created is not None or replied.message_id == message.message_thread_id
    )
    if found or replied is None or topic_start:
        return found  # in a forum topic every message "replies" to the topic's first one
    if replied.from_user is not None and not replied.from_user.is_bot:
        found.append(replied.from_user.id)
    return found


async def remove(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/remove @player (or as a reply to their message)."""
    if (w := await _admin_here(update, context)) is None or w.message is None:
        return
    named = await _named_people(context, w.message)
    if not named:
        await say(context, w, "error.name_a_player")
        return
    await _run_admin(context, w, cmd.RemovePlayer(**_admin(w), player=named[0]))  # type: ignore[arg-type]


async def replace(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/replace @old @new: the newcomer takes over the seat."""
    if (w := await _admin_here(update, context)) is None or w.message is None:
        return
    named = await _named_people(context, w.message)
    if len(named) < 2:
        await say(context, w, "error.name_two_players")
        return
    command = cmd.ReplacePlayer(**_admin(w), player=named[0], newcomer=named[1])  # type: ignore[arg-type]
    await _run_admin(context, w, command)


async def settings(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/settings shows every setting; /settings NAME VALUE changes one (admins)."""
    w = await group_update(update, context)
    if w is None:
        return
    svc = services(context)
    args = _args(w)
    ref = await game_here(context, w)
    game = await svc.store.load(ref.id) if ref is not None else None
    if not args:
        current = (
            game.pending_settings or game.settings
            if game
            else await svc.directory.chat_settings(w.chat.id)
        )
        listing = {"settings": to_dict(current), "for_game": game is not None}
        await say(context, w, "settings.list", listing)
        return
    admin = await is_admin(context, w.chat.id, w.user.id)
    in_game = game is not None and game.phase is not Phase.ENDED
    if not admin and not in_game:  # the chat's defaults are the admins' to set
        await refuse(context, w, RuleError("admin_only"))
        return
    name, raw = args[0].lower(), " ".join(args[1:])
    if name not in SETTING_NAMES:
        await refuse(context, w, RuleError("unknown_setting", setting=name))
        return
    try:
        value = parse_setting(name, raw)
    except SettingInputError as error:
        await say(context, w, f"input.{error.reason}", {"setting": Setting(name), **error.values})
        return
    try:
        if in_game and ref is not None:  # the engine decides who may change what
            change = cmd.ChangeSettings(
                actor=w.user.id, actor_is_admin=admin, changes={name: value}
            )
            await svc.run(ref.id, change)
        else:
            defaults = await svc.store.chats.get(w.chat.id)
            changed = change_chat_defaults(
                defaults.settings, {name: value}, has_custom_pack=defaults.pack is not None
            )
            await svc.store.chats.set_settings(w.chat.id, changed)
            await say(context, w, "settings.defaults_saved", {"setting": Setting(name)})
    except RuleError as error:
        await refuse(context, w, error)


async def language(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/language en|ru: the chat's language (admins)."""
    if (w := await _admin_here(update, context)) is None:
        return
    args = _args(w)
    if not args or args[0].lower() not in LANGUAGES:
        await say(context, w, "error.language_choices", {"choices": ", ".join(LANGUAGES)})
        return
    await services(context).store.chats.set_language(w.chat.id, args[0].lower())
    await say(context, w, "language.set")
