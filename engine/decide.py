"""decide(state, command, now) -> events: the one entry point of the rules.

`decide_and_apply` is the same decision with the state after each event (a Decision), for
callers that go on with the state: the events are folded once, by the engine.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from engine import accusations, admin, clocks, days, lobby, presence, suggestions
from engine import commands as cmd
from engine.decision import Decision
from engine.editions import editions
from engine.errors import WrongFormat
from engine.events import Event
from engine.format import format_of
from engine.state import Game
from engine.table.edition import Edition, Handler


def _forum_only(handler: Handler) -> Handler:
    """A forum command in a table game is refused, naming the game's format."""

    def handle(state: Game | None, command: Any, now: datetime) -> Decision:
        if state is not None and not format_of(state).has_days:
            raise WrongFormat()
        return handler(state, command, now)

    return handle


def _table_handler(state: Game | None, command: cmd.Command) -> Handler:
    """A table command's handler in the game's edition; a command the edition lacks is of
    another format. A forum game's are the default edition's (they refuse it: no table).
    With no game, any edition's (they refuse it: no game)."""
    kind = type(command)
    if state is not None:
        found = format_of(state)
        edition = found if isinstance(found, Edition) else editions()[0]
        handler = edition.commands.get(kind)
        if handler is None:
            raise WrongFormat()
        return handler
    for edition in editions():
        if kind in edition.commands:
            return edition.commands[kind]
    raise KeyError(kind)


def _table_command(state: Game | None, command: Any, now: datetime) -> Decision:
    return _table_handler(state, command)(state, command, now)


def _by_format(forum: Handler) -> Handler:
    """A command both formats take: the forum's rules, or the table edition's."""

    def handle(state: Game | None, command: Any, now: datetime) -> Decision:
        if state is not None and format_of(state).plays_turns(state):
            return _table_command(state, command, now)
        return forum(state, command, now)

    return handle


def _cue(state: Game | None, command: cmd.DetectiveCue, now: datetime) -> Decision:
    """A detective's cue changes nothing by itself (see `cmd.DetectiveCue`)."""
    return Decision(state)


# The forum's commands and those every format shares; the table's are each edition's.
_HANDLERS: dict[type[cmd.Command], Handler] = {
    cmd.OpenLobby: lobby.open_lobby,
    cmd.JoinLobby: lobby.join_lobby,
    cmd.LeaveLobby: lobby.leave_lobby,
    cmd.AddDetective: lobby.add_detective,
    cmd.RemoveDetective: lobby.remove_detective,
    cmd.ChooseRole: lobby.choose_role,
    cmd.ChangeSettings: lobby.change_settings,
    cmd.StartGame: lobby.start_game,
    cmd.MakeSuggestion: _forum_only(suggestions.make_suggestion),
    cmd.Refute: _forum_only(suggestions.refute),
    cmd.DeclareNoRefutation: _forum_only(suggestions.declare_no_refutation),
    cmd.AnswerDeadline: days.answer_deadline,
    cmd.Accuse: _by_format(accusations.accuse),
    cmd.GoAway: _by_format(presence.go_away),
    cmd.ComeBack: _by_format(presence.come_back),
    cmd.SetStandingAnswer: presence.set_standing_answer,
    cmd.CloseWindow: accusations.close_window,
    cmd.EndDay: days.end_day,
    cmd.ExtendDay: _forum_only(days.extend_day),
    cmd.SendReminder: days.send_reminder,
    cmd.LeaveGame: admin.leave_game,
    cmd.RemovePlayer: admin.remove_player,
    cmd.ReplacePlayer: admin.replace_player,
    cmd.SeatDetective: admin.seat_detective,
    cmd.DetectiveCue: _cue,
    cmd.ClockSeen: clocks.clock_seen,
    cmd.VoidSuggestion: _forum_only(admin.void_suggestion),
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
    return _HANDLERS.get(type(command), _table_command)(state, command, now)


def decide(state: Game | None, command: cmd.Command, now: datetime) -> list[Event]:
    """The events a command causes (see decide_and_apply), or a RuleError."""
    return decide_and_apply(state, command, now).events
