"""The /settings menu: an admin's /settings in a group sends the menu to their private
chat (the group gets a one-line pointer with a button), and every press there edits the
menu in place. The asker must be an admin of the chat at every press; a press on a menu
drawn before the game or its settings moved on changes nothing and says so."""

from __future__ import annotations

import logging

from telegram import Update
from telegram.error import TelegramError

from bot import callbacks as cb
from bot.context import CustomContext
from bot.handlers.common import (
    Where,
    answer_empty,
    answer_toast,
    error_args,
    error_key,
    is_admin,
    remember,
    say,
    where,
)
from bot.handlers.setting_change import change_settings
from bot.payload import User
from bot.render.keyboards import buttons_markup, keyboard
from bot.render.reader import Reader
from bot.settings_screens import (
    HOME,
    OPEN,
    SET,
    Screen,
    Target,
    main_screen,
    pressed_change,
    setting_index,
    setting_screen,
)
from engine.errors import RuleError
from engine.queries import settings_are_the_games, settings_scope
from locales import supported

log = logging.getLogger(__name__)
DEEP_LINK = "settings"  # /start settings: the private chat opens, and a menu parked there goes out


async def target_of(context: CustomContext, chat_id: int, topic_id: int) -> Target:
    """What a menu of this chat and topic changes now: its game, else its defaults."""
    store = context.services.store
    ref = await store.game_for_chat(chat_id, topic_id)
    game = await store.load(ref.id) if ref is not None else None
    defaults = (await store.chats.get(chat_id)).settings
    scope = settings_scope(game, defaults, store.registry.specs)
    if ref is None or game is None or not settings_are_the_games(game):
        return Target(chat_id, topic_id, 0, "", scope, store.registry.specs)
    return Target(chat_id, topic_id, ref.id, game.phase.value, scope, store.registry.specs)


async def send_menu(context: CustomContext, target: Target, user_id: int, key: str) -> None:
    """The menu's first screen to the person's private chat (kept until they start the
    bot, if they have not)."""
    label = await context.services.store.chats.label(target.chat_id, target.topic_id)
    msg, args, buttons = main_screen(target, label)
    await context.services.tell(user_id, msg, args, user_id=user_id, buttons=buttons, key=key)


async def open_menu(context: CustomContext, w: Where) -> None:
    """An admin's /settings in a group: the menu in private, a pointer in the group."""
    svc = context.services
    target = await target_of(context, w.chat.id, w.topic_id)
    await send_menu(context, target, w.user.id, f"u{w.update_id}:menu.settings")
    if await svc.directory.dm_ok(w.user.id):
        data = cb.Callback(
            cb.SETTINGS_OPEN, target.game_id, (str(w.chat.id), str(w.topic_id))
        ).encode()
        button = {"t": "menu.open", "data": data}
        await say(context, w, "menu.pointer", {"admin": User(w.user.id)}, buttons=[[button]])
        return
    button = {"t": "button.open_private", "url": svc.deep_link(DEEP_LINK)}
    await say(context, w, "menu.pointer_start", {"admin": User(w.user.id)}, buttons=[[button]])


async def open_button(update: Update, context: CustomContext) -> None:
    """The group pointer's button: the presser's own menu in private, if they are an admin."""
    query = update.callback_query
    pressed = _pressed(update)
    if query is None or query.message is None or pressed is None or len(pressed[1].args) != 2:
        await answer_toast(context, update, "toast.stale", alert=True)
        return
    w, _, chat_id, topic_id = pressed
    if chat_id != query.message.chat.id:  # the pointer names its own group
        await answer_toast(context, update, "toast.stale", alert=True)
        return
    await remember(context, w.user)
    if not await is_admin(context, chat_id, w.user.id):
        await answer_toast(context, update, "menu.not_admin", alert=True)
        return
    target = await target_of(context, chat_id, topic_id)
    await send_menu(context, target, w.user.id, f"u{w.update_id}:menu.settings")
    if await context.services.directory.dm_ok(w.user.id):
        await answer_toast(context, update, "menu.sent")
        return
    try:  # Telegram opens the private chat, where Start releases the menu
        await query.answer(url=context.services.deep_link(DEEP_LINK))
    except TelegramError:
        log.info("a button press could not be answered (too old)")


async def menu_button(update: Update, context: CustomContext) -> None:
    """A press in the menu: checked (an admin now, the menu still current), then the next
    screen, or the change through the same path as the typed /settings."""
    query = update.callback_query
    pressed = _pressed(update)
    if query is None or query.message is None or pressed is None or len(pressed[1].args) < 4:
        await answer_toast(context, update, "toast.stale", alert=True)
        return
    w, data, chat_id, topic_id = pressed
    version, action, rest = data.args[2], data.args[3], list(data.args[4:])
    await remember(context, w.user)
    if not await is_admin(context, chat_id, w.user.id):
        await answer_toast(context, update, "menu.not_admin", alert=True)
        return
    target = await target_of(context, chat_id, topic_id)
    label = await context.services.store.chats.label(chat_id, topic_id)
    if data.game != target.game_id or version != target.version:
        await _edit(context, update, main_screen(target, label))
        await answer_toast(context, update, "menu.stale", alert=True)
        return
    toast = ""
    try:
        if action == HOME:
            screen = main_screen(target, label)
        elif action == OPEN:
            screen = setting_screen(target, label, setting_index(target, rest[0] if rest else ""))
        elif action == SET:
            name, value = pressed_change(target, rest)
            game_id = target.game_id or None
            await change_settings(
                context, chat_id, game_id, actor=w.user.id, admin=True, changes={name: value}
            )
            target = await target_of(context, chat_id, topic_id)
            changeable = target.changeable()
            index = target.scope.shown.index(name) if name in changeable else None
            screen = (
                main_screen(target, label)
                if index is None
                else setting_screen(target, label, index)
            )
            toast = "menu.saved"
        else:
            raise cb.Malformed(action)
    except RuleError as error:  # the engine's refusal, in the admin's language
        tz = target.scope.settings.timezone
        await answer_toast(context, update, error_key(error), error_args(error), alert=True, tz=tz)
        return
    except cb.Malformed:
        await answer_toast(context, update, "toast.stale", alert=True)
        return
    await _edit(context, update, screen)
    if toast:
        await answer_toast(context, update, toast)
    else:
        await answer_empty(update)


def _pressed(update: Update) -> tuple[Where, cb.Callback, int, int] | None:
    """Who pressed, the button's data and the chat and topic it names (its first two
    fields); None for data none of our buttons carries."""
    query = update.callback_query
    w = where(update)
    data = cb.parse(query.data if query is not None else None)
    if w is None or data is None or len(data.args) < 2:
        return None
    try:
        return w, data, cb.chat(data.args[0]), cb.chat(data.args[1])
    except cb.Malformed:
        return None


async def _edit(context: CustomContext, update: Update, screen: Screen) -> None:
    """The menu message shows `screen` now, in the presser's language."""
    query = update.callback_query
    assert query is not None  # only called for button presses
    msg, args, buttons = screen
    language = supported(await context.services.directory.person_language(query.from_user.id))
    reader = Reader(language)
    text = context.services.presentations.compose(reader, msg, args)
    markup = keyboard(buttons_markup(reader, buttons))
    try:
        await query.edit_message_text(text, parse_mode="HTML", reply_markup=markup)
    except TelegramError as error:  # "not modified", or a message too old to edit
        log.info("the settings menu could not be edited: %s", error)
