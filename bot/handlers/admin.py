"""Admin commands (chat admins only, asked of Telegram): settings, pause, resume, extend,
void, remove, replace, end, language."""

from __future__ import annotations

import re
from dataclasses import dataclass

from telegram import Update

from bot.context import CustomContext
from bot.handlers.common import (
    Where,
    game_here,
    group_update,
    is_admin,
    refuse,
    require_game_here,
    say,
)
from bot.handlers.mentions import named_people, unknown_mention
from bot.handlers.setting_change import change_settings
from bot.handlers.settings_menu import open_menu
from bot.payload import Language, Setting
from bot.settings_controls import shown
from bot.settings_text import (
    SettingInputError,
    parse_duration,
    parse_setting,
    split_setting,
)
from engine import commands as cmd
from engine.codec import to_dict
from engine.computer import Level, detective_user
from engine.errors import RuleError
from engine.queries import admin_refusal, settings_are_the_games, settings_refusal
from engine.settings import require_setting
from locales import DEFAULT_LANGUAGE, LANGUAGES, every_word, language_of
from locales.formats import language_name


@dataclass(frozen=True)
class Asker:
    """Where an admin command came from, and whether Telegram says its sender is an admin."""

    w: Where
    admin: bool


async def _admin_here(update: Update, context: CustomContext) -> Asker | None:
    """The update's place if it comes from a group; a non-admin is refused (by the engine's
    rule) before being asked for anything else."""
    w = await group_update(update, context)
    if w is None:
        return None
    admin = await is_admin(context, w.chat.id, w.user.id)
    refusal = admin_refusal(admin)
    if refusal is not None:
        await refuse(context, w, refusal)
        return None
    return Asker(w, admin)


async def _run_admin(context: CustomContext, w: Where, command: cmd.Command) -> None:
    ref = await require_game_here(context, w)
    if ref is None:
        return
    try:
        await context.run(ref.id, command)
    except RuleError as error:
        await refuse(context, w, error)


async def pause(update: Update, context: CustomContext) -> None:
    if (a := await _admin_here(update, context)) is not None:
        await _run_admin(context, a.w, cmd.PauseGame(actor=a.w.user.id, actor_is_admin=a.admin))


async def resume(update: Update, context: CustomContext) -> None:
    if (a := await _admin_here(update, context)) is not None:
        command = cmd.ResumeGame(actor=a.w.user.id, actor_is_admin=a.admin)
        await _run_admin(context, a.w, command)


async def end_game(update: Update, context: CustomContext) -> None:
    if (a := await _admin_here(update, context)) is not None:
        await _run_admin(context, a.w, cmd.EndGame(actor=a.w.user.id, actor_is_admin=a.admin))


async def extend(update: Update, context: CustomContext) -> None:
    """/extend 2h: the current day gets more time."""
    if (a := await _admin_here(update, context)) is None:
        return
    try:
        by = parse_duration(" ".join(context.args or ()))
    except SettingInputError as error:
        if error.reason == "too_large":
            await say(context, a.w, "error.extension_too_large", error.values)
        else:
            await say(context, a.w, "error.invalid_extension")
        return
    command = cmd.ExtendDay(actor=a.w.user.id, actor_is_admin=a.admin, by=by)
    await _run_admin(context, a.w, command)


async def void(update: Update, context: CustomContext) -> None:
    """/void, as a reply to the bot's post of the suggestion."""
    if (a := await _admin_here(update, context)) is None:
        return
    w = a.w
    ref = await require_game_here(context, w)
    if ref is None:
        return
    replied = w.message.reply_to_message if w.message else None
    suggestion = None
    if replied is not None:
        key = await context.services.store.outbox.message_key(w.chat.id, replied.message_id)
        found = re.fullmatch(rf"g{ref.id}:s(\d+)", key or "")
        suggestion = int(found[1]) if found else None
    if suggestion is None:
        await say(context, w, "error.void_needs_reply")
        return
    command = cmd.VoidSuggestion(actor=w.user.id, actor_is_admin=a.admin, suggestion=suggestion)
    await _run_admin(context, w, command)


async def remove(update: Update, context: CustomContext) -> None:
    """/remove @player (or as a reply to their message; a computer detective as the bot
    names it: /remove inspector 1)."""
    if (a := await _admin_here(update, context)) is None or a.w.message is None:
        return
    detective = detective_named(context.args or [])
    named = [detective] if detective is not None else await named_people(context, a.w.message)
    if detective is None and await _said_unknown(context, a.w):
        return
    if not named:
        await say(context, a.w, "error.name_a_player")
        return
    command = cmd.RemovePlayer(actor=a.w.user.id, actor_is_admin=a.admin, player=named[0])
    await _run_admin(context, a.w, command)


async def replace(update: Update, context: CustomContext) -> None:
    """/replace @old @new: the newcomer takes over the seat; /replace @old inspector (or
    novice, sleuth): a computer detective of that level does; /replace inspector 1 @new: a
    person takes over that detective's seat."""
    if (a := await _admin_here(update, context)) is None or a.w.message is None:
        return
    if await _said_unknown(context, a.w):
        return
    named = await named_people(context, a.w.message)
    words = context.args or []
    detective = detective_named(words)
    level = level_named(words)
    command: cmd.Command
    if len(named) == 1 and detective is not None:
        command = cmd.ReplacePlayer(
            actor=a.w.user.id, actor_is_admin=a.admin, player=detective, newcomer=named[0]
        )
    elif len(named) == 1 and level is not None:
        command = cmd.SeatDetective(
            actor=a.w.user.id, actor_is_admin=a.admin, player=named[0], level=level
        )
    elif len(named) >= 2:
        command = cmd.ReplacePlayer(
            actor=a.w.user.id, actor_is_admin=a.admin, player=named[0], newcomer=named[1]
        )
    else:
        await say(context, a.w, "error.name_two_players")
        return
    await _run_admin(context, a.w, command)


async def _said_unknown(context: CustomContext, w: Where) -> bool:
    """Whether the command names an @username the bot cannot place, which it then says."""
    unknown = await unknown_mention(context, w.message) if w.message is not None else None
    if unknown is not None:
        await say(context, w, "parse.unknown_player", {"username": unknown})
    return unknown is not None


def _level_of(word: str) -> Level | None:
    typed = word.casefold()
    return next((lv for lv in Level if typed in every_word(f"detective.words_{lv}")), None)


def level_named(words: list[str]) -> Level | None:
    """The computer detective's level among the words typed, in any of our languages."""
    return next((lv for lv in map(_level_of, words) if lv is not None), None)


def detective_named(words: list[str]) -> int | None:
    """A computer detective named first, as the bot names it: its level and number
    ("inspector 1", in any of our languages); its id."""
    if len(words) < 2:
        return None
    level, number = _level_of(words[0]), words[1]
    if level is None or not (number.isascii() and number.isdigit() and 0 < int(number) < 1000):
        return None
    return detective_user(int(number), level)


async def settings(update: Update, context: CustomContext) -> None:
    """/settings: the menu in an admin's private chat (others see every setting);
    /settings NAME VALUE changes one, named as in the code or in the chat's language."""
    w = await group_update(update, context)
    if w is None:
        return
    svc = context.services
    args = context.args or []
    ref = await game_here(context, w)
    game = await svc.store.load(ref.id) if ref is not None else None
    admin = await is_admin(context, w.chat.id, w.user.id)
    if not args and admin:
        await open_menu(context, w)
        return
    if not args:
        current = (
            game.pending_settings or game.settings
            if game
            else await svc.directory.chat_settings(w.chat.id)
        )
        values = {name: shown(current, name, svc.registry.specs) for name in to_dict(current)}
        listing = {"settings": values, "for_game": game is not None}
        await say(context, w, "settings.list", listing)
        return
    refusal = settings_refusal(game, admin)  # the chat's defaults are the admins' to set
    if refusal is not None:
        await refuse(context, w, refusal)
        return
    languages = (await svc.directory.chat_language(w.chat.id), DEFAULT_LANGUAGE)
    name, raw = split_setting(args, languages)
    try:
        require_setting(name)
    except RuleError as error:
        await refuse(context, w, error)
        return
    try:
        value = parse_setting(name, raw, svc.registry.keys)
    except SettingInputError as error:
        await say(context, w, f"input.{error.reason}", {"setting": Setting(name), **error.values})
        return
    to_game = ref is not None and settings_are_the_games(game)
    try:
        await change_settings(
            context,
            w.chat.id,
            ref.id if ref is not None and to_game else None,
            actor=w.user.id,
            admin=admin,
            changes={name: value},
        )
    except RuleError as error:
        await refuse(context, w, error)
        return
    if not to_game:
        await say(context, w, "settings.defaults_saved", {"setting": Setting(name)})


async def chat_language(update: Update, context: CustomContext) -> None:
    """/language code (or the language's own name) in a group: the chat's language (admins)."""
    if (a := await _admin_here(update, context)) is None:
        return
    chosen = language_of(" ".join(context.args or []))
    if chosen is None:
        choices = ", ".join(f"{code} ({language_name(code)})" for code in LANGUAGES)
        await say(context, a.w, "error.language_choices", {"choices": choices})
        return
    await context.services.store.chats.set_language(a.w.chat.id, chosen)
    await say(context, a.w, "language.set", {"language": Language(chosen)})
