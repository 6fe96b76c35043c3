"""The deadlines a state is waiting for, as data: when, and the command to run then."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from engine import commands as cmd
from engine.state import Game


@dataclass(frozen=True)
class Deadline:
    """`key` is stable for one deadline (kind and the day, suggestion or window it is for)."""

    key: str
    at: datetime
    command: cmd.Command


def deadlines(state: Game | None) -> list[Deadline]:
    """Every pending deadline of a running, unpaused game, earliest first."""
    if state is None or not state.running or state.paused:
        return []
    found: list[Deadline] = []
    if state.day_open and state.day_ends_at is not None:
        found.append(Deadline(f"day:{state.day}", state.day_ends_at, cmd.EndDay(day=state.day)))
        remind_at = state.day_ends_at - state.settings.reminder_before
        opened_at = state.day_opened_at or remind_at
        if state.reminded_day < state.day and opened_at < remind_at < state.day_ends_at:
            remind = cmd.SendReminder(day=state.day)
            found.append(Deadline(f"remind:{state.day}", remind_at, remind))
    for s in state.pending_answers():
        answer = cmd.AnswerDeadline(suggestion=s.id)
        found.append(Deadline(f"answer:{s.id}", s.answer_due, answer))
    if state.window is not None and state.window.open:
        number = state.window.number
        close = cmd.CloseWindow(window=number)
        found.append(Deadline(f"window:{number}", state.window.closes_at, close))
    return sorted(found, key=lambda d: (d.at, d.key))
