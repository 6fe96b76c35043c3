"""Who belongs to a game: its lobby, then its seats (kept for "my games" lookups)."""

from __future__ import annotations

from engine.state import Game


def members(state: Game | None) -> set[int]:
    """Everyone in the lobby or holding a seat (a replaced person no longer does)."""
    if state is None:
        return set()
    return {entry.user for entry in state.lobby} | {player.user for player in state.players}
