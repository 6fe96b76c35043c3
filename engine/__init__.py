"""The rules of play-by-post Cluedo: pure, deterministic, standard library only."""

from engine.decide import decide, decide_and_apply
from engine.decision import Decision
from engine.editions import register
from engine.errors import RULE_ERROR_CODES, RuleError
from engine.evolve import evolve, replay
from engine.format import Format, format_of
from engine.settings import Settings
from engine.state import Game, Phase

__all__ = [
    "RULE_ERROR_CODES",
    "Decision",
    "Format",
    "Game",
    "Phase",
    "RuleError",
    "Settings",
    "decide",
    "decide_and_apply",
    "evolve",
    "format_of",
    "register",
    "replay",
]
