"""Leaving, removal, replacement, voiding, pause and resume, ending a game."""

from __future__ import annotations

from datetime import datetime

from engine import commands as cmd
from engine import events as ev
from engine.computer import next_detective
from engine.decision import Decision
from engine.errors import (
    AlreadyAnswered,
    AlreadyInGame,
    GameNotPaused,
    GameNotRunning,
    SeatNotActive,
    SuggestionIsVoided,
    TargetNotInGame,
)
from engine.format import format_of
from engine.ids import UserId
from engine.outcomes import end_if_nobody_can_accuse
from engine.rules import (
    require_active,
    require_admin,
    require_game,
    require_player,
    require_running,
    require_suggestion,
)
from engine.state import Answer, Game, Phase, Player
from engine.suggestions import answer_all_for
from engine.table.turns import after_leaving


def _leave(game: Game, seat: int, removed: bool, now: datetime) -> Decision:
    decision = Decision(game)
    decision.emit(ev.PlayerLeft(at=now, seat=seat, removed=removed))
    answer_all_for(decision, seat, now)
    if format_of(game).plays_turns(game):
        after_leaving(decision, seat, now)
    end_if_nobody_can_accuse(decision, now)
    return decision


def leave_game(state: Game | None, c: cmd.LeaveGame, now: datetime) -> Decision:
    """A player leaves; they keep their cards and the GM answers for them."""
    game = require_running(state)
    player = require_active(require_player(game, c.actor))
    return _leave(game, player.seat, False, now)


def remove_player(state: Game | None, c: cmd.RemovePlayer, now: datetime) -> Decision:
    require_admin(c)
    game = require_running(state)
    player = _seat_of(game, c.player)
    if not player.active:
        raise SeatNotActive()
    return _leave(game, player.seat, True, now)


def replace_player(state: Game | None, c: cmd.ReplacePlayer, now: datetime) -> Decision:
    """A newcomer takes over a seat: its hand, role and history."""
    require_admin(c)
    game = require_running(state)
    player = _seat_of(game, c.player)
    if game.player_of(c.newcomer) is not None:
        raise AlreadyInGame()
    return _hand_over(game, player, c.newcomer, now)


def seat_detective(state: Game | None, c: cmd.SeatDetective, now: datetime) -> Decision:
    """A computer detective takes over a seat (one a person left, say): hand, role, history."""
    require_admin(c)
    game = require_running(state)
    player = _seat_of(game, c.player)
    return _hand_over(game, player, next_detective(game.detectives_seated, c.level), now)


def _seat_of(game: Game, user: UserId) -> Player:
    """The seat an admin's command names; refused when that person does not play here."""
    player = game.player_of(user)
    if player is None:
        raise TargetNotInGame()
    return player


def _hand_over(game: Game, player: Player, newcomer: UserId, now: datetime) -> Decision:
    """The player's seat goes to `newcomer`, with its hand, role and history."""
    return Decision(
        game, ev.SeatReplaced(at=now, seat=player.seat, old_user=player.user, new_user=newcomer)
    )


def void_suggestion(state: Game | None, c: cmd.VoidSuggestion, now: datetime) -> Decision:
    """A game error: the suggestion must not be answered; same day, the quota comes back."""
    require_admin(c)
    game = require_running(state)
    suggestion = require_suggestion(game, c.suggestion)
    if suggestion.answer is Answer.VOIDED:
        raise SuggestionIsVoided(suggestion=suggestion.id)
    if suggestion.answer is not Answer.PENDING:
        raise AlreadyAnswered(suggestion=suggestion.id)
    refunded = game.day_open and suggestion.day == game.day
    return Decision(game, ev.SuggestionVoided(at=now, suggestion=suggestion.id, refunded=refunded))


def pause_game(state: Game | None, c: cmd.PauseGame, now: datetime) -> Decision:
    require_admin(c)
    game = require_running(state)
    return Decision(game, ev.GamePaused(at=now))


def resume_game(state: Game | None, c: cmd.ResumeGame, now: datetime) -> Decision:
    """The clock starts again; every deadline has moved by the paused time."""
    require_admin(c)
    game = require_game(state)
    if game.phase is not Phase.RUNNING:
        raise GameNotRunning()
    if game.paused_at is None:
        raise GameNotPaused()
    return Decision(game, ev.GameResumed(at=now, paused_at=game.paused_at))


def end_game(state: Game | None, c: cmd.EndGame, now: datetime) -> Decision:
    """An admin ends the game; the envelope is revealed."""
    require_admin(c)
    game = require_game(state)
    if game.phase is Phase.ENDED:
        raise GameNotRunning()
    return Decision(game, ev.GameEnded(at=now, reason=ev.EndReason.ENDED))
