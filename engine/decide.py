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
from engine.errors import WrongFormat
from engine.events import Event
from engine.liars import commands as lcmd
from engine.liars import play as liars_play
from engine.liars import turns as liars_turns
from engine.state import Game
from engine.table import accuse as table_accuse
from engine.table import suggest as table_suggest
from engine.table import turns

Handler = Callable[[Game | None, Any, datetime], Decision]


def _forum_only(handler: Handler) -> Handler:
    """A forum command in a classic game is refused, naming the game's format."""

    def handle(state: Game | None, command: Any, now: datetime) -> Decision:
        if state is not None and state.settings.classic:
            raise WrongFormat()
        return handler(state, command, now)

    return handle


def _by_format(forum: Handler, table: Handler) -> Handler:
    """One command, each format's rules (an accusation)."""

    def handle(state: Game | None, command: Any, now: datetime) -> Decision:
        if state is not None and state.table is not None:
            return table(state, command, now)
        return forum(state, command, now)

    return handle


def _by_edition(classic: Handler, liars: Handler) -> Handler:
    """One table command, each edition's rules (moving, accusing, ending a turn, the turn
    timer)."""

    def handle(state: Game | None, command: Any, now: datetime) -> Decision:
        if state is not None and state.settings.liars:
            return liars(state, command, now)
        return classic(state, command, now)

    return handle


_LIARS_ONLY: dict[type[cmd.Command], Handler] = {
    lcmd.PlayInvestigation: liars_play.play_investigation,
    lcmd.CallLiar: liars_play.call_liar,
    lcmd.ExposeCard: liars_play.expose_card,
    lcmd.PassCard: liars_play.pass_card,
    lcmd.PeekAt: liars_play.peek_at,
    lcmd.MoveAnywhere: liars_play.move_anywhere,
    lcmd.LiarsDeadline: liars_play.liars_deadline,
}


def _liars_only(handler: Handler) -> Handler:
    """A Liars Edition command in another format is refused, naming the game's format."""

    def handle(state: Game | None, command: Any, now: datetime) -> Decision:
        if state is not None and not state.settings.liars:
            raise WrongFormat()
        return handler(state, command, now)

    return handle


_HANDLERS: dict[type[cmd.Command], Handler] = {
    cmd.OpenLobby: lobby.open_lobby,
    cmd.JoinLobby: lobby.join_lobby,
    cmd.LeaveLobby: lobby.leave_lobby,
    cmd.ChooseRole: lobby.choose_role,
    cmd.ChangeSettings: lobby.change_settings,
    cmd.StartGame: lobby.start_game,
    cmd.MakeSuggestion: _forum_only(suggestions.make_suggestion),
    cmd.Refute: _forum_only(suggestions.refute),
    cmd.DeclareNoRefutation: _forum_only(suggestions.declare_no_refutation),
    cmd.AnswerDeadline: suggestions.answer_deadline,
    cmd.Accuse: _by_format(
        accusations.accuse, _by_edition(table_accuse.accuse, liars_turns.accuse)
    ),
    cmd.CloseWindow: accusations.close_window,
    cmd.EndDay: days.end_day,
    cmd.ExtendDay: _forum_only(days.extend_day),
    cmd.SendReminder: days.send_reminder,
    cmd.LeaveGame: admin.leave_game,
    cmd.RemovePlayer: admin.remove_player,
    cmd.ReplacePlayer: admin.replace_player,
    cmd.VoidSuggestion: _forum_only(admin.void_suggestion),
    cmd.PauseGame: admin.pause_game,
    cmd.ResumeGame: admin.resume_game,
    cmd.EndGame: admin.end_game,
    cmd.Roll: turns.roll,
    cmd.Move: _by_edition(turns.move, liars_turns.move),
    cmd.TakePassage: _by_edition(turns.take_passage, liars_turns.take_passage),
    cmd.StayToSuggest: _by_edition(turns.stay_to_suggest, liars_turns.stay),
    cmd.DrawClue: turns.draw_clue,
    cmd.EndTurn: _by_edition(turns.end_turn, liars_turns.end_turn),
    cmd.ReturnToTable: turns.return_to_table,
    cmd.TurnDeadline: _by_edition(turns.turn_deadline, liars_play.turn_deadline),
    cmd.Suggest: table_suggest.suggest,
    cmd.ShowCard: table_suggest.show_card,
    cmd.RefuteDeadline: table_suggest.refute_deadline,
    **{kind: _liars_only(handler) for kind, handler in _LIARS_ONLY.items()},
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
