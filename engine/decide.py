"""decide(state, command, now) -> events: the one entry point of the rules."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from engine import accusations, admin, days, lobby, suggestions
from engine import commands as cmd
from engine.events import Event
from engine.state import Game

_HANDLERS: dict[type[cmd.Command], Callable[[Game | None, Any, datetime], list[Event]]] = {
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


def decide(state: Game | None, command: cmd.Command, now: datetime) -> list[Event]:
    """Validate a command against the state; the events it causes, or a RuleError.

    `now` must be timezone-aware. A deadline command that is stale or early decides [].
    """
    if now.tzinfo is None:
        raise ValueError("now must be timezone-aware")
    return _HANDLERS[type(command)](state, command, now)
