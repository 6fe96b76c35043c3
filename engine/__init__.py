"""The rules of play-by-post Cluedo: pure, deterministic, standard library only."""

from engine.decide import decide, decide_and_apply
from engine.decision import Decision
from engine.editions import register
from engine.error_codes import rule_error_codes
from engine.errors import RuleError
from engine.evolve import evolve, replay
from engine.format import Format, format_of
from engine.settings import Settings
from engine.state import Game, Phase

RULE_ERROR_CODES: frozenset[str] = rule_error_codes()
"""Every code the engine raises (each format's kinds: the registry above has them all)."""

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
