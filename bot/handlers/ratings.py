"""/top in a group: the chat's leaderboard of its current season (`/top season N`: of an
earlier one; `/top all`: across every chat, for those who allow it); /me in private: a
person's profile card (a picture; its record in words behind a button), ratings and
leaderboard choices, with the buttons that change them. A button sets a choice (never
toggles it), so a stale press changes nothing; a forged one is refused."""

from __future__ import annotations

from dataclasses import asdict, replace
from types import MappingProxyType
from typing import Any

from telegram import Update
from telegram.error import TelegramError
from telegram.ext import CallbackQueryHandler, CommandHandler, filters

from bot import callbacks as cb
from bot.context import App, CustomContext
from bot.handlers.common import answer_toast, group_update, private_update, say
from bot.handlers.seasons import Shown, add_season_handlers, season_shown
from bot.payload import Buttons, User
from bot.render.keyboards import buttons_markup, keyboard
from bot.render.reader import Reader
from engine.standings import FORUM, TABLE
from storage.rating_math import EVERY_CHAT, FIRST_SEASON, Rating, RatingKey
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
TEXT = "text"  # the button that sends the card's record in words
PRESSES = frozenset({*SET, TEXT})


def add_rating_handlers(application: App) -> None:
    """/top, /me, /season and their buttons (before the handler of unknown buttons)."""
    fresh = ~filters.UpdateType.EDITED
    application.add_handler(CommandHandler("top", top, filters=fresh))
    application.add_handler(CommandHandler("me", me, filters=fresh))
    application.add_handler(CallbackQueryHandler(me_button, pattern=f"^{ME}:"))
    add_season_handlers(application)


async def top(update: Update, context: CustomContext) -> None:
    """/top: the chat's leaderboard of people's games in its current season, one per
    family (/top season N: of season N); /top all: the leaderboard across every chat (no
    seasons), of those who chose to appear there."""
    w = await group_update(update, context)
    if w is None:
        return
    words = context.args or []
    everywhere = [a.lower() for a in words][:1] == ["all"]
    shown = Shown(FIRST_SEASON, 1) if everywhere else await season_shown(context, w, words)
    if shown is None:
        return
    ratings = context.services.store.ratings
    chat = EVERY_CHAT if everywhere else w.chat.id
    await ratings.rate_pending(chat_id=chat)  # what ended there and waits is taken in first
    boards = []
    for family in FAMILIES:
        board = await ratings.leaderboard(chat, family, season=shown.season)
        boards.append({"family": family, "rows": [_row(user, r) for user, r in board]})
    args = {"everywhere": everywhere, "boards": boards, "min_games": MIN_GAMES}
    if shown.seasons > 1:  # which season, once the chat has had more than one
        args["season"] = shown.season
    await say(context, w, "top.board", args)


def _row(user: int, rating: Rating) -> dict[str, Any]:
    return {
        "player": User(user),
        "rating": rating.conservative,
        "wins": rating.wins,
        "games": rating.games,
    }


async def me(update: Update, context: CustomContext) -> None:
    """/me (in private): the person's profile card, a picture with the choice buttons and
    one that shows the record in words."""
    w = await private_update(update, context, "me")
    if w is None:
        return
    args, choices = await _card(context, w.user.id)
    await say(context, w, "me.photo", args, buttons=_buttons(choices, photo=True), picture="me")


async def _card(context: CustomContext, user_id: int) -> tuple[dict[str, Any], Choices]:
    ratings = context.services.store.ratings
    await ratings.rate_pending(user_id=user_id)
    mine = await ratings.of_person(user_id)
    choices = await ratings.choices(user_id)
    earned = await context.services.store.achievements.of_person(user_id)
    rows = [_rating(key, mine[key]) for key in sorted(mine, key=_order)]
    args = {
        "player": User(user_id),
        "games": sum(r.games for r in mine.values()),
        "wins": sum(r.wins for r in mine.values()),
        "right": sum(r.right for r in mine.values()),
        "wrong": sum(r.wrong for r in mine.values()),
        "ratings": rows,
        "moments": [asdict(m) for m in await ratings.moments(user_id) if m.family in FAMILIES],
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


def _buttons(choices: Choices, *, photo: bool) -> Buttons:
    """The choices' buttons, each setting the other value of its choice; on the card's
    picture (`photo`) first the one that shows it in words."""
    rows = [[_button("text")]] if photo else []
    rows.append([_button("show" if choices.hidden else "hide")])
    if not choices.hidden:
        rows.append([_button("own" if choices.everywhere else "all")])
    return rows


def _button(choice: str) -> dict[str, Any]:
    return {"t": f"button.me_{choice}", "data": cb.Callback(ME, 0, (choice,)).encode()}


async def me_button(update: Update, context: CustomContext) -> None:
    """A press on the /me card: the record sent in words (`text`), or the choice set and
    the card's caption (its text, when it is the record in words) edited to show it."""
    query = update.callback_query
    if query is None:
        return
    data = cb.parse(query.data)
    if data is None or data.game != 0 or len(data.args) != 1 or data.args[0] not in PRESSES:
        await answer_toast(context, update, "toast.stale", alert=True)
        return
    if query.message is None or query.message.chat.id != query.from_user.id:
        await answer_toast(context, update, "toast.not_yours", alert=True)
        return
    user = query.from_user.id
    ratings = context.services.store.ratings
    if data.args[0] == TEXT:
        args, choices = await _card(context, user)
        buttons = _buttons(choices, photo=False)
        key = f"q{query.id}:me.card"
        await context.services.tell(user, "me.card", args, user_id=user, buttons=buttons, key=key)
        await query.answer()
        return
    old = await ratings.choices(user)
    new = replace(old, **SET[data.args[0]])
    if new != old:
        await ratings.set_choices(user, new)
    args, choices = await _card(context, user)
    directory = context.services.directory
    zone = await directory.person_timezone(user) or "UTC"
    reader = Reader(await directory.person_language(user), zone)
    photo = bool(getattr(query.message, "photo", None))
    text = context.presentations.compose(reader, "me.photo" if photo else "me.card", args)
    markup = keyboard(buttons_markup(reader, _buttons(choices, photo=photo)))
    try:
        if photo:
            await query.edit_message_caption(text, parse_mode="HTML", reply_markup=markup)
        else:
            await query.edit_message_text(text, parse_mode="HTML", reply_markup=markup)
        await query.answer()
    except TelegramError:
        await answer_toast(context, update, "toast.stale")
