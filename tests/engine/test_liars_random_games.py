"""A thousand random Liars Edition games of 3 to 6 players end with every invariant holding:
each turn rolls first, then moves, takes the passage or stays, and plays its investigation
card (or the GM reads it when the turn's time runs out) unless the hand is empty."""

from __future__ import annotations

from datetime import timedelta

import pytest

from engine.codec import event_from_dict, event_to_dict, from_dict, to_dict
from engine.evolve import replay
from engine.liars.events import InvestigationRead
from engine.settings import GameFormat, Settings
from engine.state import Game, Phase
from simulation.liarsplay import RandomLiars
from tests.support.liars_invariants import check_liars_invariants, check_turn_ends

GAMES = 1000


def _settings(seed: int) -> Settings:
    """Vary the deck and the timers across games (a small deck reshuffles often)."""
    lies = 3 + seed % 7  # with at least one of each truth: 6 or more cards
    return Settings(
        format=GameFormat.LIARS,
        dice=1 + seed % 2,
        away_after=1 + seed % 3,
        truth_move_cards=1 + seed % 3,
        truth_pass_cards=1 + seed % 4,
        truth_peek_cards=1 + seed % 2,
        lie_cards=lies,
        liar_window=timedelta(seconds=10 + seed % 50),
    )


@pytest.mark.slow
def test_thousand_random_liars_games_end_with_the_invariants_holding() -> None:
    outcomes = {"won": 0, "no_winner": 0, "ended": 0}
    gm_reads = 0
    for seed in range(GAMES):
        game = RandomLiars(seed=seed, players=3 + seed % 4, settings=_settings(seed))
        game.setup()
        for _ in range(20_000):
            if game.game.phase is Phase.ENDED:
                break
            before, seen = game.game, len(game.events)
            game.step()
            check_liars_invariants(game.game)
            check_turn_ends(before, game.events[seen:])
        gm_reads += sum(isinstance(e, InvestigationRead) and e.by_gm for e in game.events)
        final = game.game
        assert final.phase is Phase.ENDED, f"game {seed} did not end"
        assert final.end_reason is not None
        outcomes[final.end_reason] += 1
        assert replay(game.events) == final, f"game {seed} does not replay"
    assert outcomes["won"] > 0 and outcomes["no_winner"] > 0
    assert gm_reads > 0, "no turn timer ran out on an unplayed card"
    assert sum(outcomes.values()) == GAMES


def test_a_liars_game_replays_from_its_stored_events_and_its_snapshot() -> None:
    game = RandomLiars(seed=5, players=4)
    final = game.play()
    stored = [event_from_dict(event_to_dict(e)) for e in game.events]
    assert stored == game.events
    assert replay(stored) == final
    assert from_dict(Game, to_dict(final)) == final
