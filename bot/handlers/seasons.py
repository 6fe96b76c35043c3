"""Seasons in a group: `/season new` (admins) asks, with a button only that admin may
press, whether to start the chat's next leaderboard; the press starts it and the question
becomes the answer (one post in all). `/top season N` names an earlier season. A button
names the season it starts, so a stale or repeated press changes nothing."""

from __future__ import annotations

import re
from dataclasses import dataclass

from telegram import Update
from telegram.constants import ChatType
from telegram.ext import CallbackQueryHandler, CommandHandler, filters

from bot import callbacks as cb
from bot.context import App, CustomContext
from bot.handlers.common import (
    Where,
    answer_empty,
    answer_toast,
    error_key,
    group_update,
    is_admin,
    refuse,
    say,
)
from bot.payload import Buttons
from engine.queries import admin_refusal
from locales import every_word

SEASON = "se"  # a new season's question: se:0:admin:number (number 0: not now)
ASK = "season.ask"
NEW = "new"  # /season new


def add_season_handlers(application: App) -> None:
    """/season and the buttons of its question."""
    fresh = ~filters.UpdateType.EDITED
    application.add_handler(CommandHandler("season", season, filters=fresh))
    application.add_handler(CallbackQueryHandler(season_button, pattern=f"^{SEASON}:"))


async def season(update: Update, context: CustomContext) -> None:
    """/season: the chat's season; /season new (admins): ask to start the next one."""
    w = await group_update(update, context)
    if w is None:
        return
    seasons = context.services.store.seasons
    current = await seasons.current(w.chat.id)
    if [a.casefold() for a in context.args or []] != [NEW]:
        await say(context, w, "season.now", {"season": current})
        return
    refusal = admin_refusal(await is_admin(context, w.chat.id, w.user.id))
    if refusal is not None:
        await refuse(context, w, refusal)
        return
    number = current + 1
    buttons: Buttons = [
        [{"t": "button.season_start", "args": {"season": number}, "data": _data(w, number)}],
        [{"t": "button.season_not_now", "data": _data(w, 0)}],
    ]
    await say(context, w, ASK, {"season": number, "previous": current}, buttons=buttons)


def _data(w: Where, number: int) -> str:
    return cb.Callback(SEASON, 0, (str(w.user.id), str(number))).encode()


async def season_button(update: Update, context: CustomContext) -> None:
    """A press on the question: the admin who asked starts the season (or not); the
    question is edited to say what happened. Anyone else's press changes nothing."""
    query = update.callback_query
    if query is None:
        return
    data = cb.parse(query.data)
    message = query.message
    try:
        if data is None or data.game != 0 or len(data.args) != 2 or message is None:
            raise cb.Malformed(query.data)
        asker = cb.number(data.args[0])
        number = 0 if data.args[1] == "0" else cb.number(data.args[1])
    except cb.Malformed:
        await answer_toast(context, update, "toast.stale", alert=True)
        return
    if query.from_user.id != asker:
        await answer_toast(context, update, "toast.not_yours", alert=True)
        return
    svc, chat_id = context.services, message.chat.id
    group = message.chat.type in (ChatType.GROUP, ChatType.SUPERGROUP)
    key = await svc.store.outbox.message_key(chat_id, message.message_id)
    if not group or key is None or f":{ASK}" not in key:  # not our question (or forgotten)
        await answer_toast(context, update, "toast.stale", alert=True)
        return
    refusal = admin_refusal(await is_admin(context, chat_id, asker))
    if refusal is not None:  # no longer an admin
        await answer_toast(context, update, error_key(refusal), alert=True)
        return
    seasons = svc.store.seasons
    if number and not await seasons.start(chat_id, number, asker, svc.now()):
        await answer_toast(context, update, "toast.stale", alert=True)  # begun already
        return
    told = "season.started" if number else "season.kept"
    args = (
        {"season": number, "previous": number - 1}
        if number
        else {"season": await seasons.current(chat_id)}
    )
    again = f"u{update.update_id}:{told}"
    await svc.tell(chat_id, told, args, key=again, edit_of=key)
    await answer_empty(update)


@dataclass(frozen=True)
class Shown:
    """The season a leaderboard shows, and how many seasons its chat has had."""

    season: int
    seasons: int


async def season_shown(context: CustomContext, w: Where, words: list[str]) -> Shown | None:
    """The season that `/top` (words: none) or `/top season N` shows in this chat; None
    (answered: the number is not one of the chat's seasons) when there is none."""
    current = await context.services.store.seasons.current(w.chat.id)
    if not words or words[0].casefold() not in every_word("top.words_season"):
        return Shown(current, current)
    typed = words[1] if len(words) == 2 else ""
    if re.fullmatch(r"[0-9]{1,9}", typed) is None or int(typed) < 1:
        await say(context, w, "error.season_number", {"count": current})
        return None
    if int(typed) > current:
        await say(context, w, "error.no_season", {"season": int(typed), "count": current})
        return None
    return Shown(int(typed), current)
