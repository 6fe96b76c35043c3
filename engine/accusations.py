"""Accusations: one per player, the window they open, and judging at its close."""

from __future__ import annotations

from datetime import datetime

from engine import commands as cmd
from engine import events as ev
from engine.days import open_next_day
from engine.deadlines import live_deadline
from engine.decision import Decision
from engine.errors import AlreadyAccused
from engine.outcomes import end_if_nobody_can_accuse, is_solution
from engine.rules import require_active, require_cards, require_player, require_running
from engine.state import Game, Player


def require_may_accuse(state: Game | None, user: int) -> tuple[Game, Player]:
    """The game runs and the person holds a seat that is in play and has not accused yet."""
    game = require_running(state)
    player = require_active(require_player(game, user))
    if player.accused:
        raise AlreadyAccused()
    return game, player


def accuse(state: Game | None, c: cmd.Accuse, now: datetime) -> Decision:
    """A private accusation; the first one opens the window, later ones join it."""
    game, player = require_may_accuse(state, c.actor)
    cards = (c.suspect, c.weapon, c.place)
    require_cards(game, cards)
    decision = Decision(game)
    if game.window is not None and game.window.open:
        number = game.window.number
    else:
        number = game.window.number + 1 if game.window is not None else 1
        closes_at = now + game.settings.accusation_window
        decision.emit(ev.WindowOpened(at=now, window=number, closes_at=closes_at))
    decision.emit(
        ev.AccusationMade(
            at=now,
            seat=player.seat,
            window=number,
            suspect=c.suspect,
            weapon=c.weapon,
            place=c.place,
        )
    )
    return decision


def close_window(state: Game | None, c: cmd.CloseWindow, now: datetime) -> Decision:
    """Judge the window's accusations in order of arrival; the first right one wins."""
    game = live_deadline(state, c, now)
    if game is None:
        return Decision(state)
    window = game.window
    assert window is not None
    decision = Decision(game)
    for accusation in game.accusations_in(window.number):
        correct = is_solution(game, accusation.cards)
        decision.emit(ev.AccusationJudged(at=now, seat=accusation.seat, correct=correct))
        if correct:
            decision.emit(ev.WindowClosed(at=now, window=window.number))
            decision.emit(ev.GameEnded(at=now, reason=ev.EndReason.WON, winner=accusation.seat))
            return decision
    decision.emit(ev.WindowClosed(at=now, window=window.number))
    end_if_nobody_can_accuse(decision, now)
    if decision.state.running and not decision.state.day_open:
        open_next_day(decision, now)
    return decision
