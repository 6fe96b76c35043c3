"""/top in a group: the chat's leaderboard (`/top all`: across every chat, for those who
allow it); /me in private: a person's record, ratings and leaderboard choices, with the
buttons that change them. A button sets a choice (never toggles it), so a stale press
changes nothing; a forged one is refused."""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType
from typing import Any

from telegram import Update
from telegram.error import TelegramError
from telegram.ext import CallbackQueryHandler, CommandHandler, filters

from bot import callbacks as cb
from bot.context import App, CustomContext
from bot.handlers.common import answer_toast, group_update, private_update, say
from bot.payload import Buttons, User
from bot.render.keyboards import buttons_markup, keyboard
from bot.render.reader import Reader
from engine.standings import FORUM, TABLE
from storage.rating_math import EVERY_CHAT, Rating, RatingKey
from storage.ratings import MIN_GAMES, Choices

ME = "me"  # a /me button: me:0:choice
FAMILIES = (FORUM, TABLE)
SET = MappingProxyType(  # a button's choice -> the change it makes
    {
        "hide": MappingProxyType({"hidden": True}),
        "show": MappingProxyType({"hidden": False}),
        "all": MappingProxyType({"everywhere": True}),
        "own": MappingProxyType({"everywhere": False}),
    }
)


def add_rating_handlers(application: App) -> None:
    """/top, /me and the /me buttons (before the handler of unknown buttons)."""
    fresh = ~filters.UpdateType.EDITED
    application.add_handler(CommandHandler("top", top, filters=fresh))
    application.add_handler(CommandHandler("me", me, filters=fresh))
    application.add_handler(CallbackQueryHandler(me_button, pattern=f"^{ME}:"))


async def top(update: Update, context: CustomContext) -> None:
    """/top: the chat's leaderboard of people's games, one per family; /top all: the
    leaderboard across every chat, of those who chose to appear there."""
    w = await group_update(update, context)
    if w is None:
        return
    everywhere = [a.lower() for a in context.args or []][:1] == ["all"]
    ratings = context.services.store.ratings
    await ratings.rate_pending()  # what ended and waits is taken in first
    chat = EVERY_CHAT if everywhere else w.chat.id
    boards = []
    for family in FAMILIES:
        rows = [_row(user, r) for user, r in await ratings.leaderboard(chat, family)]
        boards.append({"family": family, "rows": rows})
    args = {"everywhere": everywhere, "boards": boards, "min_games": MIN_GAMES}
    await say(context, w, "top.board", args)


def _row(user: int, rating: Rating) -> dict[str, Any]:
    return {
        "player": User(user),
        "rating": rating.conservative,
        "wins": rating.wins,
        "games": rating.games,
    }


async def me(update: Update, context: CustomContext) -> None:
    """/me (in private): the person's record across every chat, with the choice buttons."""
    w = await private_update(update, context, "me")
    if w is None:
        return
    args, choices = await _card(context, w.user.id)
    await say(context, w, "me.card", args, buttons=_buttons(choices))


async def _card(context: CustomContext, user_id: int) -> tuple[dict[str, Any], Choices]:
    ratings = context.services.store.ratings
    await ratings.rate_pending()
    mine = await ratings.of_person(user_id)
    choices = await ratings.choices(user_id)
    earned = await context.services.store.achievements.of_person(user_id)
    rows = [_rating(key, mine[key]) for key in sorted(mine, key=_order)]
    args = {
        "games": sum(r.games for r in mine.values()),
        "wins": sum(r.wins for r in mine.values()),
        "right": sum(r.right for r in mine.values()),
        "wrong": sum(r.wrong for r in mine.values()),
        "ratings": rows,
        "achievements": [e.key for e in earned],
        "hidden": choices.hidden,
        "everywhere": choices.everywhere,
    }
    return args, choices


def _order(key: RatingKey) -> tuple[int, str]:
    return FAMILIES.index(key.family) if key.family in FAMILIES else len(FAMILIES), key.pool


def _rating(key: RatingKey, rating: Rating) -> dict[str, Any]:
    return {
        "family": key.family,
        "pool": key.pool,
        "mu": rating.mu,
        "sigma": rating.sigma,
        "rating": rating.conservative,
        "games": rating.games,
    }


def _buttons(choices: Choices) -> Buttons:
    """The choices' buttons: each sets the other value of its choice."""
    hide = "show" if choices.hidden else "hide"
    rows = [[{"t": f"button.me_{hide}", "data": cb.Callback(ME, 0, (hide,)).encode()}]]
    if not choices.hidden:
        where = "own" if choices.everywhere else "all"
        rows.append([{"t": f"button.me_{where}", "data": cb.Callback(ME, 0, (where,)).encode()}])
    return rows


async def me_button(update: Update, context: CustomContext) -> None:
    """A press on the /me card: the choice set, the card edited to show it."""
    query = update.callback_query
    if query is None:
        return
    data = cb.parse(query.data)
    if data is None or data.game != 0 or len(data.args) != 1 or data.args[0] not in SET:
        await answer_toast(context, update, "toast.stale", alert=True)
        return
    if query.message is None or query.message.chat.id != query.from_user.id:
        await answer_toast(context, update, "toast.not_yours", alert=True)
        return
    user = query.from_user.id
    ratings = context.services.store.ratings
    old = await ratings.choices(user)
    new = replace(old, **SET[data.args[0]])
    if new != old:
        await ratings.set_choices(user, new)
    args, choices = await _card(context, user)
    directory = context.services.directory
    zone = await directory.person_timezone(user) or "UTC"
    reader = Reader(await directory.person_language(user), zone)
    text = context.presentations.compose(reader, "me.card", args)
    markup = keyboard(buttons_markup(reader, _buttons(choices)))
    try:
        await query.edit_message_text(text, parse_mode="HTML", reply_markup=markup)
        await query.answer()
    except TelegramError:
        await answer_toast(context, update, "toast.stale")
