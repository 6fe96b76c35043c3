"""A thousand random games of 3 to 10 players: each ends, every invariant holds throughout."""

from __future__ import annotations

from datetime import timedelta

import pytest

from engine.evolve import replay
from engine.settings import Settings
from engine.state import Phase
from simulation.randomplay import RandomGame
from tests.support.invariants import check_invariants

GAMES = 1000
BLOCKS = 4  # the games in blocks of 250, so parallel test workers share them


def _settings(seed: int) -> Settings:
    """Vary the settings across games so every switch is exercised."""
    return Settings(
        auto_no_refutation=seed % 2 == 0,
        eliminated_may_suggest=seed % 3 != 0,
        max_received_per_day=None if seed % 4 else 4,
        missed_answer_penalty=seed % 3,
        extra_cards=seed % 5 // 4,
        day_length=timedelta(hours=24 if seed % 7 else 1),
        max_players=10,
    )


@pytest.mark.slow
@pytest.mark.parametrize("block", range(BLOCKS))
def test_thousand_random_games_all_end_with_invariants_holding(block: int) -> None:
    """Each block of 250 of the thousand games: some won, some with no winner."""
    outcomes = {"won": 0, "no_winner": 0, "ended": 0}
    size = GAMES // BLOCKS
    for seed in range(block * size, (block + 1) * size):
        players = 3 + seed % 8
        game = RandomGame(seed=seed, players=players, settings=_settings(seed))
        game.setup()
        for _ in range(20_000):
            if game.game.phase is Phase.ENDED:
                break
            before = game.game
            game.step()
            check_invariants(game.game, before)
        final = game.game
        assert final.phase is Phase.ENDED, f"game {seed} did not end"
        assert final.end_reason is not None
        outcomes[final.end_reason] += 1
        assert replay(game.events) == final, f"game {seed} does not replay"
    assert outcomes["won"] > 0 and outcomes["no_winner"] > 0
    assert sum(outcomes.values()) == size
