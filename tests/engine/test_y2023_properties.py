"""Properties of the 2023 edition: every card accounted for exactly once (hands, envelope,
the two-player game's cards face down in rooms) and no private view naming a card its player was
not shown, after every event of random games (its thousand random games and its game through
the JSON codec are in test_random_games.py, with every edition's)."""

from __future__ import annotations

from collections import Counter

from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from engine.state import Game, Phase
from simulation.y2023play import RandomY2023
from tests.support.table_invariants import check_table_invariants
from tests.support.y2023_invariants import check_private_views, set_aside


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
