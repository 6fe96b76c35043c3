"""A thousand random games of each table edition end with every invariant holding, and a
game of each survives the JSON codec (every event, and the whole state as a snapshot):
one test per property, parametrised over the editions (their random players in
simulation/, their invariants in tests/support/)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

import pytest

from engine import REGISTRY
from engine.codec import event_to_dict, to_dict
from engine.events import Event
from engine.evolve import replay
from engine.liars.events import InvestigationRead
from engine.settings import GameFormat, Settings
from engine.state import Game, Phase
from simulation.liarsplay import RandomLiars
from simulation.tableplay import RandomTable
from simulation.y2023play import RandomY2023
from tests.support.liars_invariants import check_liars_invariants, check_turn_ends
from tests.support.table_invariants import check_table_invariants
from tests.support.y2023_invariants import check_private_views

GAMES = 1000
BLOCKS = 4  # the games in blocks of 250, so parallel test workers share them


def _classic(seed: int) -> RandomTable:
    """Vary the table settings across games."""
    settings = Settings(format=GameFormat.CLASSIC, dice=1 + seed % 2, away_after=1 + seed % 3)
    return RandomTable(seed=seed, players=3 + seed % 4, settings=settings)


def _liars(seed: int) -> RandomTable:
    """Vary the deck and the timers across games (a small deck reshuffles often)."""
    lies = 3 + seed % 7  # with at least one of each truth: 6 or more cards
    settings = Settings(
        format=GameFormat.LIARS,
        dice=1 + seed % 2,
        away_after=1 + seed % 3,
        truth_move_cards=1 + seed % 3,
        truth_pass_cards=1 + seed % 4,
        truth_peek_cards=1 + seed % 2,
        lie_cards=lies,
        liar_window=timedelta(seconds=10 + seed % 50),
    )
    return RandomLiars(seed=seed, players=3 + seed % 4, settings=settings)


def _y2023(seed: int) -> RandomTable:
    return RandomY2023(seed=seed, players=2 + seed % 5)


def _table_step(before: Game, after: Game, events: list[Event]) -> None:
    check_table_invariants(after, before)


def _liars_step(before: Game, after: Game, events: list[Event]) -> None:
    check_liars_invariants(after)
    check_turn_ends(before, events)


def _nothing_more(final: Game, events: list[Event]) -> None:
    return None


def _views(final: Game, events: list[Event]) -> None:
    check_private_views(final, events)


def _gm_reads(events: list[Event]) -> int:
    """Turn timers that ran out on an unplayed investigation card (the GM read it)."""
    return sum(isinstance(e, InvestigationRead) and e.by_gm for e in events)


@dataclass(frozen=True)
class Case:
    """One edition's random games: how a game is made, what holds after each step and at
    the end, what must happen in some of them (`seen`, counted per game), and the game
    whose record is stored."""

    key: str
    game: Callable[[int], RandomTable]
    each_step: Callable[[Game, Game, list[Event]], None]
    at_end: Callable[[Game, list[Event]], None]
    stored: Callable[[], RandomTable]
    stored_events: frozenset[str] = frozenset()  # event types the stored game must hold
    seen: Callable[[list[Event]], int] | None = None


CASES = (
    Case(
        "classic",
        _classic,
        _table_step,
        _nothing_more,
        lambda: RandomTable(seed=3, players=4),
    ),
    Case(
        "liars",
        _liars,
        _liars_step,
        _nothing_more,
        lambda: RandomLiars(seed=5, players=4),
        seen=_gm_reads,
    ),
    Case(
        "y2023",
        _y2023,
        _table_step,
        _views,
        lambda: RandomY2023(seed=3, players=2),  # only two players place cards in rooms
        frozenset({"EditionSetUp", "PlacedCardSeen", "ClueCardDrawn"}),
    ),
)
BY_KEY = {case.key: case for case in CASES}


def test_each_case_is_a_registered_edition() -> None:
    assert all(REGISTRY.find_edition(key) is not None for key in BY_KEY)


@pytest.mark.slow
@pytest.mark.parametrize("block", range(BLOCKS))
@pytest.mark.parametrize("key", list(BY_KEY))
def test_thousand_random_games_end_with_the_invariants_holding(key: str, block: int) -> None:
    """Each block of 250 games (of the thousand) ends with a winner in some and with none
    in others, every invariant holding at every step."""
    case = BY_KEY[key]
    outcomes: Counter[str] = Counter()
    seen = 0
    size = GAMES // BLOCKS
    for seed in range(block * size, (block + 1) * size):
        game = case.game(seed)
        game.setup()
        for _ in range(20_000):
            if game.game.phase is Phase.ENDED:
                break
            before, logged = game.game, len(game.events)
            game.step()
            case.each_step(before, game.game, game.events[logged:])
        final = game.game
        assert final.phase is Phase.ENDED, f"game {seed} did not end"
        case.at_end(final, game.events)
        assert final.end_reason is not None
        outcomes[final.end_reason] += 1
        assert replay(game.events) == final, f"game {seed} does not replay"
        seen += case.seen(game.events) if case.seen is not None else 0
    assert outcomes["won"] > 0 and outcomes["no_winner"] > 0
    assert case.seen is None or seen > 0, "no turn timer ran out on an unplayed card"
    assert sum(outcomes.values()) == size


@pytest.mark.parametrize("key", list(BY_KEY))
def test_a_game_replays_from_its_stored_events_and_its_snapshot(key: str) -> None:
    """Every event and the whole state survive the JSON codec (places are squares or
    rooms; each edition's part of the table)."""
    case = BY_KEY[key]
    game = case.stored()
    final = game.play()
    assert case.stored_events <= {type(e).__name__ for e in game.events}
    stored = [REGISTRY.codec.event_from_dict(event_to_dict(e)) for e in game.events]
    assert stored == game.events
    assert replay(stored) == final
    assert REGISTRY.codec.from_dict(Game, to_dict(final)) == final
