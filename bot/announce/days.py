"""A day's opening, end and extension, and the private reminders before a day ends.

A day's end is one post in the thread. When the next day opens with it, that is the new
day's post (the one the index links to): the day that ended, the suggestions the GM
answered at its end, its digest, the new day, and any call for a replacement with its
button. When no day opens (the accusation window is open) it is the day's own end post.
Everything else the day's end says goes to private chats, and the index is one edit."""

from __future__ import annotations

from typing import Any

from bot import callbacks as cb
from bot.announce.plan import Args, Buttons, Plan, button, user_at
from bot.announce.presence import calls_for_replacement
from bot.payload import Moment, Span, User
from engine import events as ev
from engine.digest import day_digest
from engine.state import Game


def day_opened(plan: Plan, seq: int, e: ev.DayOpened, before: Game | None, after: Game) -> None:
    penalties = [
        {"user": User(p.user), "count": p.penalty_today} for p in after.players if p.penalty_today
    ]
    args: Args = {
        "day": e.day,
        "ends_at": Moment.of(e.ends_at),
        "per_day": after.settings.suggestions_per_day,
        "penalties": penalties,
    }
    ended = _ended_before(plan, seq)
    if ended is None:
        plan.group(plan.key(seq, "day"), "day.opened", args)
        return
    ending, game = ended
    args["ended"] = _ending(plan, ending, game)
    plan.group(plan.key(seq, "day"), "day.opened", args, buttons=_replacement_buttons(plan, game))


def day_ended(plan: Plan, seq: int, e: ev.DayEnded, before: Game | None, after: Game) -> None:
    """The day's end, with its digest: in the next day's post when that opens with it."""
    if _opens_day_next(plan, seq):
        return
    waiting = after.window_open
    closes = Moment.of(after.window.closes_at) if waiting and after.window else None
    plan.group(
        plan.key(seq, "dayend"),
        "day.ended",
        {**_ending(plan, e, after), "waiting_for_window": waiting, "window_closes_at": closes},
        buttons=_replacement_buttons(plan, after),
    )


def ends_day(plan: Plan) -> bool:
    """Whether the command ends a day: then its post tells what the GM answered."""
    return any(isinstance(x, ev.DayEnded) for x in plan.ctx.events)


def _ending(plan: Plan, e: ev.DayEnded, game: Game) -> Args:
    """What the post says of the day that ended (`game`: the state right after it ended):
    the suggestions the GM answered at its end, its digest, the calls for a replacement."""
    return {
        "day": e.day,
        "answers": _gm_answers(plan, game),
        "digest": _digest(game, e),
        "wanted": [
            {"player": User(user_at(game, x.seat)), "days": x.days, "count": x.days}
            for x in calls_for_replacement(plan.ctx.events, game.settings)
        ],
    }


def _gm_answers(plan: Plan, game: Game) -> list[Args]:
    """The suggestions the GM answered at the day's end, in the order answered (the
    thread's only word of them: their private messages go as ever)."""
    answers = []
    for x in plan.ctx.events:
        if isinstance(x, ev.SuggestionRefuted | ev.SuggestionNotRefuted):
            s = game.suggestion(x.suggestion)
            assert s is not None
            answers.append(
                {
                    "number": s.number,
                    "suggester": User(user_at(game, s.suggester)),
                    "target": User(user_at(game, s.target)),
                    "refuted": isinstance(x, ev.SuggestionRefuted),
                }
            )
    return answers


def _digest(game: Game, e: ev.DayEnded) -> dict[str, Any]:
    digest = day_digest(game, e.at)
    seats = [
        {
            "player": User(game.players[s.seat].user),
            "made": s.made,
            "quota": s.quota,
            "owes": s.owes,
            "penalty": s.penalty,
            "excused": s.excused,
            "until": Moment.of(s.until) if s.until else None,
        }
        for s in digest.seats
    ]
    next_day = Span.of(digest.next_day) if digest.next_day is not None else None
    return {"seats": seats, "next_day": next_day}


def _replacement_buttons(plan: Plan, game: Game) -> Buttons | None:
    """A button for an admin under each call for a replacement (the player named when the
    post calls for more than one); `game`: the state right after the day ended."""
    called = calls_for_replacement(plan.ctx.events, game.settings)
    rows = []
    for x in called:
        data = cb.Callback(cb.REPLACEMENT, plan.ctx.game_id, (str(x.seat),))
        if len(called) == 1:
            text: Args = {"t": "button.find_replacement"}
        else:
            text = {"t": "button.find_replacement_for", "player": user_at(game, x.seat)}
        rows.append([button(text, data)])
    return rows or None


def _ended_before(plan: Plan, seq: int) -> tuple[ev.DayEnded, Game] | None:
    """The day's end this command told just before the day opening at `seq`, with the
    state right after it; None when the day opens otherwise (the start, a window closed)."""
    index = seq - plan.ctx.first_seq
    if index == 0:
        return None
    e = plan.ctx.events[index - 1]
    if not isinstance(e, ev.DayEnded):
        return None
    return e, plan.ctx.decision.states[index - 1]


def _opens_day_next(plan: Plan, seq: int) -> bool:
    index = seq - plan.ctx.first_seq
    later = plan.ctx.events[index + 1 :]
    return any(isinstance(x, ev.DayOpened) for x in later)


def day_extended(plan: Plan, seq: int, e: ev.DayExtended, before: Game | None, after: Game) -> None:
    plan.group(
        plan.key(seq, "extend"), "day.extended", {"day": e.day, "ends_at": Moment.of(e.ends_at)}
    )


def reminder_sent(
    plan: Plan, seq: int, e: ev.ReminderSent, before: Game | None, after: Game
) -> None:
    """A private nudge to players who owe answers or still have suggestions."""
    assert after.day_ends_at is not None
    for player in after.players:
        owes = len(after.answers_owed_by(player.seat))
        left = after.quota_left(player)
        if player.active and (owes or left):
            plan.private(
                plan.key(seq, f"remind{player.user}"),
                player.user,
                "dm.reminder",
                {"owes": owes, "left": left, "ends_at": Moment.of(after.day_ends_at)},
            )
