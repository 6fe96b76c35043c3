"""A person's own language and time zone (/language and /timezone in the private chat, or
their buttons); in a group, /language is the chat's (admins) and /timezone tells the chat's."""

from __future__ import annotations

from typing import Any

from telegram import Update
from telegram.error import TelegramError

from bot import callbacks as cb
from bot.context import CustomContext
from bot.handlers.admin import chat_language
from bot.handlers.common import answer_toast, game_here, remember, say, where
from bot.payload import Buttons, Language, Moment, Zone, upgrade
from bot.render.keyboards import keyboard
from bot.render.reader import Reader
from locales import LANGUAGES, language_of, t
from locales.formats import language_name
from locales.zones import find_zone

AUTO = "auto"  # the language: Telegram's; the zone: each game chat's
WELCOME = "w"  # a language button under the /start welcome: the welcome is said again
ROW = 2  # buttons per row


async def language(update: Update, context: CustomContext) -> None:
    """/language [code or name]: in private the person's, in a group the chat's (admins)."""
    w = where(update)
    if w is None:
        return
    if not w.private:
        await chat_language(update, context)
        return
    await remember(context, w.user)
    typed = " ".join(context.args or []).strip()
    if not typed:
        key, args, rows = await _language_menu(context, w.user.id)
        await say(context, w, key, args, buttons=rows)
        return
    chosen = language_of(typed)
    if chosen is None:
        choices = ", ".join(f"{code} ({language_name(code)})" for code in LANGUAGES)
        await say(context, w, "error.language_choices", {"choices": choices})
        return
    await context.services.store.people.set_language(w.user.id, chosen)
    await say(context, w, "language.person_set", {"language": Language(chosen)})


async def _language_menu(
    context: CustomContext, user_id: int
) -> tuple[str, dict[str, Any], Buttons]:
    person = await context.services.store.people.get(user_id)
    chosen = person.language if person is not None else None
    rows = language_rows(cb.PERSON_LANGUAGE)
    rows.append([{"t": "button.language_auto", "data": _auto(cb.PERSON_LANGUAGE)}])
    if chosen in LANGUAGES:
        return "language.choose", {"language": Language(str(chosen))}, rows
    return "language.choose_auto", {}, rows


def language_rows(kind: str, *more: str, chosen: str | None = None) -> Buttons:
    """A button per language, each in its own name (✅ the `chosen` one), sending
    `kind:0:code` (and `more`)."""
    buttons = [
        {
            "language": code,
            "chosen": code == chosen,
            "data": cb.Callback(kind, 0, (code, *more)).encode(),
        }
        for code in LANGUAGES
    ]
    return [buttons[i : i + ROW] for i in range(0, len(buttons), ROW)]


async def timezone(update: Update, context: CustomContext) -> None:
    """/timezone [city or offset]: in private the person's zone for deadlines; in a group,
    the chat's zone (changed by admins with /settings timezone)."""
    w = where(update)
    if w is None:
        return
    await remember(context, w.user)
    svc = context.services
    if not w.private:
        ref = await game_here(context, w)
        settings = (
            (await svc.store.load(ref.id)).settings
            if ref is not None
            else await svc.directory.chat_settings(w.chat.id)
        )
        zone = settings.timezone
        await say(context, w, "timezone.group", {"zone": Zone(zone), "now": Moment.of(svc.now())})
        return
    typed = " ".join(context.args or []).strip()
    if not typed:
        key, args, rows = await _zone_menu(context, w.user.id)
        await say(context, w, key, args, buttons=rows)
        return
    found = find_zone(typed, LANGUAGES)
    if found is None:
        await say(context, w, "timezone.unknown", {"typed": typed[:64]})
        return
    await svc.store.people.set_timezone(w.user.id, found)
    await say(context, w, "timezone.set", {"zone": Zone(found), "now": Moment.of(svc.now())})


async def _zone_menu(context: CustomContext, user_id: int) -> tuple[str, dict[str, Any], Buttons]:
    svc = context.services
    chosen = await svc.directory.person_timezone(user_id)
    reading = await svc.directory.person_language(user_id)
    common = str(t(reading, "timezone.common")).split()
    buttons = [
        {"zone": zone, "data": cb.Callback(cb.PERSON_ZONE, 0, (zone,)).encode()} for zone in common
    ]
    rows = [buttons[i : i + ROW] for i in range(0, len(buttons), ROW)]
    rows.append([{"t": "button.timezone_chats", "data": _auto(cb.PERSON_ZONE)}])
    if chosen is None:
        return "timezone.choose_chats", {}, rows
    return "timezone.choose", {"zone": Zone(chosen)}, rows


def _auto(kind: str) -> str:
    return cb.Callback(kind, 0, (AUTO,)).encode()


async def preference_button(update: Update, context: CustomContext) -> None:
    """A press on the /language or /timezone buttons (or the language buttons under the
    /start welcome): the choice made, the message edited to say so (in the language now
    chosen; the welcome said again above it)."""
    query = update.callback_query
    if query is None:
        return
    data = cb.parse(query.data)
    welcome = data is not None and data.kind == cb.PERSON_LANGUAGE and data.args[1:] == (WELCOME,)
    if data is None or data.game != 0 or len(data.args) != 1 + welcome or query.message is None:
        await answer_toast(context, update, "toast.stale", alert=True)
        return
    if query.message.chat.id != query.from_user.id:  # only ever sent to a private chat
        await answer_toast(context, update, "toast.not_yours", alert=True)
        return
    people = context.services.store.people
    user, choice = query.from_user.id, data.args[0]
    args: dict[str, Any] = {}
    if data.kind == cb.PERSON_LANGUAGE and (choice in LANGUAGES or choice == AUTO):
        await people.set_language(user, None if choice == AUTO else choice)
        key = "language.person_auto" if choice == AUTO else "language.person_set"
        args = {} if choice == AUTO else {"language": Language(choice)}
    elif data.kind == cb.PERSON_ZONE and (choice == AUTO or find_zone(choice, ()) == choice):
        await people.set_timezone(user, None if choice == AUTO else choice)
        key = "timezone.reset" if choice == AUTO else "timezone.set"
        now = Moment.of(context.services.now())
        args = {} if choice == AUTO else {"zone": Zone(choice), "now": now}
    else:  # forged, or a language or zone this version no longer has
        await answer_toast(context, update, "toast.stale", alert=True)
        return
    await _edit(context, update, key, args, welcome=welcome)


async def _edit(
    context: CustomContext, update: Update, key: str, args: dict[str, Any], *, welcome: bool
) -> None:
    query = update.callback_query
    assert query is not None
    directory = context.services.directory
    user = query.from_user.id
    zone = await directory.person_timezone(user) or "UTC"
    reader = Reader(await directory.person_language(user), zone)
    compose = context.services.presentations.compose
    text = compose(reader, key, upgrade(args))
    if welcome:
        text = f"{compose(reader, 'start.welcome', {})}\n\n{text}"
    try:
        await query.edit_message_text(text, parse_mode="HTML", reply_markup=keyboard([]))
        await query.answer()
    except TelegramError:
        await answer_toast(context, update, "toast.stale")
