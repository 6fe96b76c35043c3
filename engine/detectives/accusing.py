"""When a computer detective accuses, and whom: the envelope its facts force (every
level), or, for an inspector, its likeliest guess when the odds are good enough, or fair
enough while an accusation window is open (someone else may win when it closes)."""

from __future__ import annotations

from engine.computer import Level
from engine.detectives.mind import Mind
from engine.state import Game

SURE_ENOUGH = 0.75  # the inspector's guess is this likely: it accuses
RACE = 0.2  # ... this likely, with a window open: it accuses too


def accusation(level: Level, mind: Mind, game: Game) -> tuple[str, ...] | None:
    """The three cards to accuse now, or None."""
    forced = mind.envelope()
    if all(card is not None for card in forced):
        return tuple(card for card in forced if card is not None)
    if level is not Level.INSPECTOR:
        return None
    guess, odds = mind.best_guess()
    if odds >= SURE_ENOUGH or (game.window_open and odds >= RACE):
        return guess
    return None
