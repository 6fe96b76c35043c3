"""Outcomes both formats share: an accusation checked against the envelope, and the end
when nobody is left who may accuse."""

from __future__ import annotations

from datetime import datetime

from engine import events as ev
from engine.cards import CardId
from engine.decision import Decision
from engine.state import Game


def is_solution(game: Game, cards: tuple[CardId, CardId, CardId]) -> bool:
    """Whether an accusation names exactly the envelope's three cards."""
    return cards == game.envelope


def end_if_nobody_can_accuse(decision: Decision, now: datetime) -> None:
    """With no window pending and nobody left to accuse, the game ends without a winner."""
    game = decision.state
    if game.running and not game.window_open and not game.anyone_can_accuse():
        decision.emit(ev.GameEnded(at=now, reason=ev.EndReason.NO_WINNER))
