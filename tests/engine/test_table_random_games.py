"""A thousand random classic games of 3 to 6 players end with every invariant holding."""

from __future__ import annotations

import pytest

from engine.codec import event_from_dict, event_to_dict, from_dict, to_dict
from engine.evolve import replay
from engine.settings import GameFormat, Settings
from engine.state import Game, Phase
from simulation.tableplay import RandomTable
from tests.support.table_invariants import check_table_invariants

GAMES = 1000


def _settings(seed: int) -> Settings:
    """Vary the table settings across games."""
    return Settings(format=GameFormat.CLASSIC, dice=1 + seed % 2, away_after=1 + seed % 3)


@pytest.mark.slow
def test_thousand_random_classic_games_end_with_the_invariants_holding() -> None:
    outcomes = {"won": 0, "no_winner": 0, "ended": 0}
    for seed in range(GAMES):
        game = RandomTable(seed=seed, players=3 + seed % 4, settings=_settings(seed))
        game.setup()
        for _ in range(20_000):
            if game.game.phase is Phase.ENDED:
                break
            game.step()
            check_table_invariants(game.game)
        final = game.game
        assert final.phase is Phase.ENDED, f"game {seed} did not end"
        assert final.end_reason is not None
        outcomes[final.end_reason] += 1
        assert replay(game.events) == final, f"game {seed} does not replay"
    assert outcomes["won"] > 0 and outcomes["no_winner"] > 0
    assert sum(outcomes.values()) == GAMES


def test_a_classic_game_replays_from_its_stored_events_and_its_snapshot() -> None:
    """Every event and the whole state survive the JSON codec (places are squares or rooms)."""
    game = RandomTable(seed=3, players=4)
    final = game.play()
    stored = [event_from_dict(event_to_dict(e)) for e in game.events]
    assert stored == game.events
    assert replay(stored) == final
    assert from_dict(Game, to_dict(final)) == final
