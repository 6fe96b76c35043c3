"""The dice of a table game: drawn from the game's seed and the turn number."""

from __future__ import annotations

import random


def roll_dice(seed: int, turn: int, count: int, faces: int = 6) -> tuple[int, ...]:
    """The turn's dice, from the game's seed and the turn number: replayable, unguessable
    without the seed."""
    rng = random.Random(f"dice:{seed}:{turn}")
    return tuple(rng.randint(1, faces) for _ in range(count))
