"""Properties of the 2023 edition: every card accounted for exactly once (hands, envelope,
the two-player game's cards face down in rooms) and no private view naming a card its player was
not shown, after every event of random games; a thousand random games end with every
invariant holding; a game survives the JSON codec."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from engine.codec import event_from_dict, event_to_dict, from_dict, to_dict
from engine.evolve import replay
from engine.state import Game, Phase
from simulation.y2023play import RandomY2023
from tests.support.table_invariants import check_table_invariants
from tests.support.y2023_invariants import check_private_views, set_aside

GAMES = 1000


def _accounted(game: Game) -> None:
    assert game.envelope is not None
    cards = [c for p in game.players for c in p.hand] + list(game.envelope) + set_aside(game)
    assert Counter(cards) == Counter(game.deck) and len(cards) == 21


def _play(seed: int, players: int, steps: int) -> RandomY2023:
    game = RandomY2023(seed=seed, players=players)
    game.setup()
    for _ in range(steps):
        if game.game.phase is Phase.ENDED:
            break
        game.step()
        _accounted(game.game)
        check_table_invariants(game.game)
        check_private_views(game.game, game.events)
    return game


@hsettings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 6))
def test_every_card_is_accounted_for_exactly_once_and_views_hold_only_shown_cards(
    seed: int, players: int
) -> None:
    _play(seed, players, 300)


@pytest.mark.slow
def test_thousand_random_2023_games_end_with_the_invariants_holding() -> None:
    outcomes: Counter[str] = Counter()
    for seed in range(GAMES):
        game = RandomY2023(seed=seed, players=2 + seed % 5)
        game.setup()
        for _ in range(20_000):
            if game.game.phase is Phase.ENDED:
                break
            game.step()
            check_table_invariants(game.game)
        final = game.game
        assert final.phase is Phase.ENDED, f"game {seed} did not end"
        check_private_views(final, game.events)
        assert final.end_reason is not None
        outcomes[final.end_reason] += 1
        assert replay(game.events) == final, f"game {seed} does not replay"
    assert outcomes["won"] > 0 and outcomes["no_winner"] > 0
    assert sum(outcomes.values()) == GAMES


def test_a_2023_game_replays_from_its_stored_events_and_its_snapshot() -> None:
    game = RandomY2023(seed=3, players=2)  # only the two-player game places cards in rooms
    final = game.play()
    names = {type(e).__name__ for e in game.events}
    assert {"EditionSetUp", "PlacedCardSeen", "ClueCardDrawn"} <= names
    stored = [event_from_dict(event_to_dict(e)) for e in game.events]
    assert stored == game.events
    assert replay(stored) == final
    assert from_dict(Game, to_dict(final)) == final
