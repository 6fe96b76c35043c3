"""The deadlines a state is waiting for, as data: when, and the command to run then.

A deadline command carries the day, suggestion, window or turn it belongs to; `live_deadline`
is the one guard every deadline command passes, so one that fires twice, late (its day,
suggestion or window is past) or early does nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from engine import commands as cmd
from engine.commands import DeadlineCommand
from engine.computer import detective_level
from engine.format import format_of
from engine.state import Answer, Game

__all__ = [
    "Deadline",
    "DeadlineCommand",
    "deadlines",
    "due_at",
    "live_deadline",
    "unseen_clock",
]


@dataclass(frozen=True)
class Deadline:
    """`key` is stable for one deadline (kind and the day, suggestion or window it is for)."""

    key: str
    at: datetime
    command: cmd.Command


def _clock_runs(game: Game) -> bool:
    return game.running and not game.paused


def due_at(game: Game, command: DeadlineCommand) -> datetime | None:
    """When the deadline `command` belongs to falls due; None if it is not pending."""
    match command:
        case cmd.EndDay(day=day):
            return game.day_ends_at if game.day_open and day == game.day else None
        case cmd.SendReminder(day=day):
            if not game.day_open or day != game.day or game.reminded_day >= day:
                return None
            ends_at = game.day_ends_at
            return None if ends_at is None else ends_at - game.settings.reminder_before
        case cmd.AnswerDeadline(suggestion=suggestion_id):
            s = game.suggestion(suggestion_id)
            return s.answer_due if s is not None and s.answer is Answer.PENDING else None
        case cmd.CloseWindow(window=number):
            window = game.window
            return window.closes_at if window and window.open and window.number == number else None
        case cmd.DetectiveCue(seat=seat):
            return _cue_at(game, seat)
        case _:  # the format's own: a table's turn and refuter, an edition's own
            return format_of(game).timer_due(game, command)


def unseen_clock(game: Game, command: DeadlineCommand) -> tuple[str, int] | None:
    """The clock (named as `ClockSeen` names it: its name and ref) that runs out at this
    deadline, while no delivery of its message has been reported: the turn's, the asked
    refuter's, or one of the edition's own. None for a deadline that ends no one's time to
    act on a message (a day, a reminder, a cue), and once its clock was reported seen."""
    if isinstance(command, cmd.DetectiveCue | cmd.EndDay | cmd.SendReminder):
        return None
    return format_of(game).unseen_clock(game, command)


def live_deadline(state: Game | None, command: DeadlineCommand, now: datetime) -> Game | None:
    """The game a deadline command acts on now; None if it is stale or early (then the
    command does nothing): the game is not running or paused, or the day, suggestion or
    window it belongs to is not the pending one, or its moment has not come."""
    if state is None or not _clock_runs(state):
        return None
    at = due_at(state, command)
    return state if at is not None and now >= at else None


def deadlines(state: Game | None) -> list[Deadline]:
    """Every pending deadline of a running, unpaused game, earliest first."""
    if state is None or not _clock_runs(state):
        return []
    cues = [
        (f"detective:{p.seat}", cmd.DetectiveCue(seat=p.seat))
        for p in state.players
        if detective_level(p.user) is not None
    ]
    return sorted([*_timers(state), *_found(state, cues)], key=lambda d: (d.at, d.key))


def _timers(state: Game) -> list[Deadline]:
    """The game's own clocks: days, reminders, answers, windows, turns and the edition's."""
    pending: list[tuple[str, DeadlineCommand]] = [
        (f"day:{state.day}", cmd.EndDay(day=state.day)),
        (f"remind:{state.day}", cmd.SendReminder(day=state.day)),
    ]
    pending += [
        (f"answer:{s.id}", cmd.AnswerDeadline(suggestion=s.id)) for s in state.pending_answers()
    ]
    if state.window is not None:
        number = state.window.number
        pending.append((f"window:{number}", cmd.CloseWindow(window=number)))
    pending += format_of(state).timers(state)
    return _found(state, pending)


def _found(state: Game, pending: Sequence[tuple[str, DeadlineCommand]]) -> list[Deadline]:
    found: list[Deadline] = []
    for key, command in pending:
        at = due_at(state, command)
        if at is None:
            continue
        if isinstance(command, cmd.SendReminder) and not _reminder_fits(state, at):
            continue
        found.append(Deadline(key, at, command))
    return found


def _cue_at(game: Game, seat: int) -> datetime | None:
    """A computer detective's move is due the human-like delay after the game last changed,
    but never later than halfway to the game's next deadline: a detective does not let a
    turn, a refutation or a Liar! window run out on it."""
    if seat >= len(game.players) or game.changed_at is None:
        return None
    player = game.players[seat]
    if detective_level(player.user) is None or not player.active:
        return None
    changed = game.changed_at
    due = changed + game.settings.detective_delay
    timers = [d.at for d in _timers(game) if d.at > changed]
    return min([due, *(changed + (at - changed) / 2 for at in timers)])


def _reminder_fits(game: Game, remind_at: datetime) -> bool:
    """A reminder is scheduled only if its moment falls inside the day (after it opened)."""
    assert game.day_ends_at is not None
    opened_at = game.day_opened_at or remind_at
    return opened_at < remind_at < game.day_ends_at
