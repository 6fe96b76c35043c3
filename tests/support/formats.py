"""What the settings' format says of them, as the shipped registry's spec answers it
(engine/formats.py `FormatSpec`): how many may play, whether roles are chosen."""

from __future__ import annotations

from engine import REGISTRY
from engine.settings import Settings


def player_range(settings: Settings) -> tuple[int, int]:
    """How many may play a game of these settings."""
    return REGISTRY.specs[settings.format].player_range(settings)


def roles_chosen(settings: Settings) -> bool:
    """Players choose their suspect in a game of these settings."""
    return REGISTRY.specs[settings.format].chooses_roles(settings)
