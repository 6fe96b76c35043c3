"""decide(state, command, now) -> events: the one entry point of the rules.

`decide_and_apply` is the same decision with the state after each event (a Decision), for
callers that go on with the state: the events are folded once, by the engine.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from engine import accusations, admin, days, lobby, suggestions
from engine import commands as cmd
from engine.decision import Decision
from engine.events import Event
from engine.state import Game

_HANDLERS: dict[type[cmd.Command], Callable[[Game | None, Any, datetime], Decision]] = {
    cmd.OpenLobby: lobby.open_lobby,
    cmd.JoinLobby: lobby.join_lobby,
    cmd.LeaveLobby: lobby.leave_lobby,
    cmd.ChangeSettings: lobby.change_settings,
    cmd.StartGame: lobby.start_game,
    cmd.MakeSuggestion: suggestions.make_suggestion,
    cmd.Refute: suggestions.refute,
    cmd.DeclareNoRefutation: suggestions.declare_no_refutation,
    cmd.AnswerDeadline: suggestions.answer_deadline,
    cmd.Accuse: accusations.accuse,
    cmd.CloseWindow: accusations.close_window,
    cmd.EndDay: days.end_day,
    cmd.ExtendDay: days.extend_day,
    cmd.SendReminder: days.send_reminder,
    cmd.LeaveGame: admin.leave_game,
    cmd.RemovePlayer: admin.remove_player,
    cmd.ReplacePlayer: admin.replace_player,
    cmd.VoidSuggestion: admin.void_suggestion,
    cmd.PauseGame: admin.pause_game,
    cmd.ResumeGame: admin.resume_game,
    cmd.EndGame: admin.end_game,
}


def decide_and_apply(state: Game | None, command: cmd.Command, now: datetime) -> Decision:
    """Validate a command against the state; its events with the state after each, or a
    RuleError.

    `now` must be timezone-aware. A deadline command that is stale or early decides no event.
    """
    if now.tzinfo is None:
        raise ValueError("now must be timezone-aware")
    return _HANDLERS[type(command)](state, command, now)


def decide(state: Game | None, command: cmd.Command, now: datetime) -> list[Event]:
    """The events a command causes (see decide_and_apply), or a RuleError."""
    return decide_and_apply(state, command, now).events
