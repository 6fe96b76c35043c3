"""Game days: ending and opening them, extending one, and the reminder before the end; an
answer that falls due as its day ends is answered by the day's end."""

from __future__ import annotations

from datetime import datetime

from engine import commands as cmd
from engine import events as ev
from engine.deadlines import live_deadline
from engine.decision import Decision
from engine.errors import InvalidExtension
from engine.presence import count_idle
from engine.rules import (
    may_open_day_during_window,
    require_admin,
    require_open_day,
    require_running,
)
from engine.schedule import day_end
from engine.state import Game
from engine.suggestions import answer_deadline as answer_alone
from engine.suggestions import answer_overdue


def open_next_day(decision: Decision, now: datetime) -> None:
    """Open the day after the current one; settings changed meanwhile apply from it."""
    game = decision.state
    settings = game.pending_settings or game.settings
    decision.emit(ev.DayOpened(at=now, day=game.day + 1, ends_at=day_end(settings, now)))


def end_day(state: Game | None, c: cmd.EndDay, now: datetime) -> Decision:
    """At the day's end: the GM answers overdue suggestions, players with no move all day
    are counted silent, the day closes, the next opens."""
    game = live_deadline(state, c, now)
    if game is None:
        return Decision(state)
    decision = Decision(game)
    answer_overdue(decision, now, excused=c.excused)
    if not c.excused:  # a day the bot slept through counts nobody silent
        count_idle(decision, now)
    decision.emit(ev.DayEnded(at=now, day=game.day))
    if may_open_day_during_window(decision.state, now):
        open_next_day(decision, now)
    return decision


def answer_deadline(state: Game | None, c: cmd.AnswerDeadline, now: datetime) -> Decision:
    """An answer falls due: the GM answers for the silent target. When its day's end is due
    as well (an answer due when its day ends), the day's end runs instead and answers it
    with the others, so the day ends in one command whichever of the two runs first."""
    game = live_deadline(state, c, now)
    ends_at = game.day_ends_at if game is not None and game.day_open else None
    if game is not None and ends_at is not None and now >= ends_at:
        return end_day(game, cmd.EndDay(actor=c.actor, day=game.day, excused=c.excused), now)
    return answer_alone(state, c, now)


def extend_day(state: Game | None, c: cmd.ExtendDay, now: datetime) -> Decision:
    """An admin gives the current day more time; its answer deadlines move with it."""
    require_admin(c)
    game = require_running(state)
    require_open_day(game, now)
    if c.by.total_seconds() <= 0:
        raise InvalidExtension()
    assert game.day_ends_at is not None
    return Decision(game, ev.DayExtended(at=now, day=game.day, ends_at=game.day_ends_at + c.by))


def send_reminder(state: Game | None, c: cmd.SendReminder, now: datetime) -> Decision:
    """Record the one reminder of a day, once it is due."""
    game = live_deadline(state, c, now)
    if game is None:
        return Decision(state)
    return Decision(game, ev.ReminderSent(at=now, day=c.day))
