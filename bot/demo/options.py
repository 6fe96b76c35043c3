"""What a demo game is asked for: light (the command line reads it before loading the bot)."""

from __future__ import annotations

from dataclasses import dataclass

from locales import LANGUAGES

# The formats the computer detectives play, each with its hands in bot/demo/editions.py.
FORMATS = ("forum", "classic", "liars", "y2023")
MIN_PLAYERS, MAX_PLAYERS = 3, 6  # every format seats 3 to 6 (the forum more, not here)
__all__ = ["FORMATS", "LANGUAGES", "MAX_PLAYERS", "MIN_PLAYERS", "Options"]


@dataclass(frozen=True)
class Options:
    """A demo game: `speed` is the pause in seconds after each message (0: none)."""

    format: str = "forum"
    players: int = 4
    language: str = "en"
    seed: int = 0
    speed: float = 0.0
