"""A day's opening, end and extension, and the private reminders before a day ends."""

from __future__ import annotations

from typing import Any

from bot.announce.plan import Plan
from bot.delivery.payload import Moment, Span, User
from engine import events as ev
from engine.digest import day_digest
from engine.state import Game


def day_opened(plan: Plan, seq: int, e: ev.DayOpened, before: Game | None, after: Game) -> None:
    penalties = [
        {"user": User(p.user), "count": p.penalty_today} for p in after.players if p.penalty_today
    ]
    plan.group(
        plan.key(seq, "day"),
        "day.opened",
        {
            "day": e.day,
            "ends_at": Moment.of(e.ends_at),
            "per_day": after.settings.suggestions_per_day,
            "penalties": penalties,
        },
    )


def day_ended(plan: Plan, seq: int, e: ev.DayEnded, before: Game | None, after: Game) -> None:
    """The day's end, with its digest."""
    waiting = after.window_open and not _opens_day_next(plan, seq)
    plan.group(
        plan.key(seq, "dayend"),
        "day.ended",
        {
            "day": e.day,
            "waiting_for_window": waiting,
            "window_closes_at": Moment.of(after.window.closes_at)
            if waiting and after.window
            else None,
            "digest": _digest(after, e),
        },
    )


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
