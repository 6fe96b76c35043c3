"""The rules of play-by-post Cluedo: pure, deterministic, standard library only."""

from engine.decide import decide, decide_and_apply
from engine.decision import Decision
from engine.editions import FORMATS, REGISTRY
from engine.errors import RuleError
from engine.evolve import evolve, replay
from engine.format import Format, format_of
from engine.registry import Registry
from engine.settings import Settings
from engine.state import Game, Phase

RULE_ERROR_CODES: frozenset[str] = frozenset(REGISTRY.errors)
"""Every code the engine raises (the shipped registry collects each format's kinds)."""

__all__ = [
    "FORMATS",
    "REGISTRY",
    "RULE_ERROR_CODES",
    "Decision",
    "Format",
    "Game",
    "Phase",
    "Registry",
    "RuleError",
    "Settings",
    "decide",
    "decide_and_apply",
    "evolve",
    "format_of",
    "replay",
]
