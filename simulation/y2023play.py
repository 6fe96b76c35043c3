"""A random 2023-edition game for simulations and tests: the classic random player with the
edition's cards and settings (two to six players), accusing only from a room."""

from __future__ import annotations

from dataclasses import dataclass

from engine.settings import GameFormat, Settings
from engine.y2023.cards import Y2023
from simulation.tableplay import RandomTable

Y2023_SETTINGS = Settings(format=GameFormat.Y2023)


@dataclass
class RandomY2023(RandomTable):
    """Drives one 2023-edition game with random moves; records every command and event."""

    settings: Settings = Y2023_SETTINGS
    suspects: tuple[str, ...] = Y2023.suspects
    weapons: tuple[str, ...] = Y2023.weapons
    rooms: tuple[str, ...] = Y2023.places
