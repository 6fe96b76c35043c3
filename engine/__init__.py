"""The rules of play-by-post Cluedo: pure, deterministic, standard library only."""

from engine.decide import decide
from engine.errors import RULE_ERROR_CODES, RuleError
from engine.evolve import evolve, replay
from engine.settings import Settings
from engine.state import Game, Phase

__all__ = [
    "RULE_ERROR_CODES",
    "Game",
    "Phase",
    "RuleError",
    "Settings",
    "decide",
    "evolve",
    "replay",
]
