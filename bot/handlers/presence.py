"""/away, /back and /standing in private, and the "find a replacement" button: a player
says they will be away (in every running game they play), is back early, or sets what the
GM shows for them when it answers for them."""

from __future__ import annotations

import re
from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

from telegram import Update

from bot import callbacks as cb
from bot.context import CustomContext
from bot.handlers.common import (
    Where,
    answer_toast,
    error_args,
    error_key,
    is_admin,
    private_update,
    refuse,
    say,
    where,
)
from bot.handlers.seats import Seated, chosen_game, running_seats
from bot.parsing import ParseError, match_own_card
from bot.payload import Cards, User, labels_of
from bot.settings_text import SettingInputError, parse_duration
from engine import commands as cmd
from engine.errors import RuleError

_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{1,2}):(\d{2}))?")
CLEAR_WORDS = frozenset({"clear", "none", "-"})


def read_until(words: list[str], now: datetime, zone: str) -> datetime | None:
    """Until when: a span from now ("2d", "36h", "1d12h") or a date, with or without a time,
    in the person's zone ("2026-12-10": that day's start; "2026-12-10 18:00"). None if
    unreadable."""
    text = " ".join(words).strip()
    found = _DATE.fullmatch(text)
    if found is not None:
        year, month, day, hour, minute = found.groups()
        try:
            at = time(int(hour or 0), int(minute or 0))
            local = datetime.combine(datetime(int(year), int(month), int(day)).date(), at)
        except ValueError:
            return None
        return local.replace(tzinfo=ZoneInfo(zone)).astimezone(now.tzinfo)
    try:
        span = parse_duration(text)
    except SettingInputError:
        return None
    return now + span if span > timedelta(0) else None


async def away(update: Update, context: CustomContext) -> None:
    """/away 2d (or /away 2026-12-10): away in every running game; each game's thread hears
    "away until …", and the GM answers for the person at once meanwhile."""
    w = await private_update(update, context, "away")
    if w is None:
        return
    svc = context.services
    zone = await svc.directory.person_timezone(w.user.id) or "UTC"
    until = read_until(list(context.args or []), svc.now(), zone)
    if until is None:
        await say(context, w, "away.usage")
        return
    await _in_every_game(context, w, cmd.GoAway(actor=w.user.id, until=until))


async def back(update: Update, context: CustomContext) -> None:
    """/back: away no more, in every running game where the person was away."""
    w = await private_update(update, context, "away")
    if w is None:
        return
    await _in_every_game(context, w, cmd.ComeBack(actor=w.user.id))


async def _in_every_game(context: CustomContext, w: Where, command: cmd.Command) -> None:
    """Runs the command in each running game of the person; each game's refusal is said
    (its thread and private message tell of each success)."""
    seats = await running_seats(context, w.user.id)
    if not seats:
        await say(context, w, "error.no_running_game")
        return
    for seated in seats:
        try:
            await context.run(seated.game_id, command)
        except RuleError as error:
            await say(
                context,
                w,
                error_key(error),
                error_args(error),
                tag=f":{seated.game_id}",
                tz=seated.game.settings.timezone,
                game=seated.game_id,
            )


async def standing(update: Update, context: CustomContext) -> None:
    """/standing [game] card, card… (or "clear"): what the GM shows for the person when it
    answers for them; /standing alone shows it."""
    w = await private_update(update, context, "hand")
    if w is None:
        return
    words = list(context.args or [])
    game_words = words[:1] if words[:1] and words[0].isdigit() else []
    seated = await chosen_game(context, w, game_words, "standing")
    if seated is None:
        return
    text = " ".join(words[len(game_words) :]).strip()
    player = seated.game.players[seated.seat]
    labels = labels_of(seated.game.pack)
    if not text:
        args = {"cards": Cards(player.standing), "hand": Cards(player.hand)}
        await say(
            context,
            w,
            "standing.shown" if player.standing else "standing.usage",
            args,
            labels=labels,
            game=seated.game_id,
        )
        return
    order = await _read_order(context, w, seated, text)
    if order is None:
        return
    try:
        await context.run(seated.game_id, cmd.SetStandingAnswer(actor=w.user.id, order=order))
    except RuleError as error:
        await refuse(context, w, error, labels=labels, game=seated.game_id)


async def _read_order(
    context: CustomContext, w: Where, seated: Seated, text: str
) -> tuple[str, ...] | None:
    """The typed cards as the person's own, in order; "clear" for none."""
    if text.casefold() in CLEAR_WORDS:
        return ()
    game = seated.game
    language = await context.services.directory.person_language(w.user.id, seated.game_id)
    hand = game.players[seated.seat].hand
    try:
        return tuple(
            match_own_card(game.pack, hand, part, language)
            for part in re.split(r"[,;]", text)
            if part.strip()
        )
    except ParseError as error:
        args = {**error.values, "hand": Cards(hand)}
        await say(context, w, error.key, args, labels=labels_of(game.pack), game=seated.game_id)
        return None


async def replacement_button(update: Update, context: CustomContext) -> None:
    """ "Find a replacement" under the thread's call: an admin is told how to hand the seat
    over; anyone else is refused."""
    query = update.callback_query
    w = where(update)
    data = cb.parse(query.data if query else None)
    if query is None or w is None or data is None or len(data.args) != 1 or w.private:
        await answer_toast(context, update, "toast.stale")
        return
    svc = context.services
    ref = await svc.store.game(data.game)
    try:
        if ref is None or ref.chat_id != w.chat.id:  # a button of another chat: forged
            raise cb.Malformed(data.args[0])
        game = await svc.store.load(data.game)
        seat = cb.index(data.args[0], len(game.players))
    except (cb.Malformed, RuleError):
        await answer_toast(context, update, "toast.stale")
        return
    if not await is_admin(context, w.chat.id, w.user.id):
        await answer_toast(context, update, "error.admin_only", alert=True)
        return
    player = game.players[seat]
    await answer_toast(context, update, "toast.replacement")
    args = {"player": User(player.user), "admin": User(w.user.id)}
    await say(context, w, "replacement.how", args, reply=False, tag=f":{data.game}:{seat}")
