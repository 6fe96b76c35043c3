"""The forum's commands and those every format shares, each with its handler.

A registry (engine/registry.py) builds its one table of handlers from `core_handlers`,
passing what only it knows: how to find the format some settings name (the lobby's
opening and its settings change), and how to route a table command to the game's edition
(engine/table/edition.py `Edition.commands`), which the commands both formats take use.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from types import MappingProxyType
from typing import Any

from engine import accusations, admin, clocks, days, lobby, presence, suggestions
from engine import commands as cmd
from engine.decision import Decision
from engine.errors import WrongFormat
from engine.format import FormatFor, format_of
from engine.state import Game
from engine.table.edition import Handler


def _forum_only(handler: Handler) -> Handler:
    """A forum command in a table game is refused, naming the game's format."""

    def handle(state: Game | None, command: Any, now: datetime) -> Decision:
        if state is not None and not format_of(state).has_days:
            raise WrongFormat()
        return handler(state, command, now)

    return handle


def _by_format(forum: Handler, table: Handler) -> Handler:
    """A command both formats take: the forum's rules, or the table edition's."""

    def handle(state: Game | None, command: Any, now: datetime) -> Decision:
        if state is not None and format_of(state).plays_turns(state):
            return table(state, command, now)
        return forum(state, command, now)

    return handle


def _cue(state: Game | None, command: cmd.DetectiveCue, now: datetime) -> Decision:
    """A detective's cue changes nothing by itself (see `cmd.DetectiveCue`)."""
    return Decision(state)


def core_handlers(format_for: FormatFor, table: Handler) -> Mapping[type[cmd.Command], Handler]:
    """The forum's commands and those every format shares: the lobby's opening and its
    settings find their format with `format_for`; a command both formats take goes to
    `table` (the game's edition) at a table."""

    def open_lobby(state: Game | None, command: cmd.OpenLobby, now: datetime) -> Decision:
        return lobby.open_lobby(state, command, now, format_for)

    def change_settings(state: Game | None, command: cmd.ChangeSettings, now: datetime) -> Decision:
        return lobby.change_settings(state, command, now, format_for)

    return MappingProxyType(
        {
            cmd.OpenLobby: open_lobby,
            cmd.JoinLobby: lobby.join_lobby,
            cmd.LeaveLobby: lobby.leave_lobby,
            cmd.AddDetective: lobby.add_detective,
            cmd.RemoveDetective: lobby.remove_detective,
            cmd.ChooseRole: lobby.choose_role,
            cmd.ChangeSettings: change_settings,
            cmd.StartGame: lobby.start_game,
            cmd.MakeSuggestion: _forum_only(suggestions.make_suggestion),
            cmd.Refute: _forum_only(suggestions.refute),
            cmd.DeclareNoRefutation: _forum_only(suggestions.declare_no_refutation),
            cmd.AnswerDeadline: days.answer_deadline,
            cmd.Accuse: _by_format(accusations.accuse, table),
            cmd.GoAway: _by_format(presence.go_away, table),
            cmd.ComeBack: _by_format(presence.come_back, table),
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
    )
