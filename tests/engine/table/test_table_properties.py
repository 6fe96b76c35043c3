"""Properties of the table editions with cards of their own, after every step of random
games: every card in exactly one place (the Liars Edition: hands, envelope, face up, on its
way left; the 2023 edition: hands, envelope, the two-player game's cards face down in
rooms), and no seat's private view naming a card it was never shown (read from the events
alone). One test per property, parametrised over the editions."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import events as ev
from engine.liars import events as lev
from engine.liars.queries import private_view
from engine.state import Game, Phase
from simulation.liarsplay import RandomLiars
from simulation.tableplay import RandomTable
from simulation.y2023play import RandomY2023
from tests.support.liars_invariants import check_liars_invariants
from tests.support.table_invariants import check_table_invariants
from tests.support.y2023_invariants import check_private_views, set_aside


def _liars_seen(events: list[ev.Event], seats: int) -> list[set[str]]:
    """What each seat has been shown, from the events alone."""
    seen: list[set[str]] = [set() for _ in range(seats)]
    suggester = 0
    for e in events:
        if isinstance(e, ev.GameStarted):
            for seat, deal in enumerate(e.seats):
                seen[seat] |= set(deal.hand)
        elif isinstance(e, ev.TableSuggestionMade):
            suggester = e.suggester
        elif isinstance(e, ev.CardShown):
            seen[suggester].add(e.card)
        elif isinstance(e, lev.TruthShown) and e.card is not None:
            seen[e.reader].add(e.card)
        elif isinstance(e, lev.Peeked):
            seen[e.seat] |= set(e.cards)
        elif isinstance(e, lev.CardsPassed):
            for _, to, card in e.moves:
                seen[to].add(card)
        elif isinstance(e, lev.CardExposed):
            for one in seen:
                one.add(e.card)
    return seen


def _liars_views(game: RandomTable) -> None:
    players = len(game.game.players)
    seen = _liars_seen(game.events, players)
    for seat in range(players):
        view = private_view(game.game, seat)
        named = {*view.hand, *view.face_up} | ({view.passing} if view.passing else set())
        assert named <= seen[seat], f"seat {seat} sees {named - seen[seat]} unshown"


def _y2023_accounted(game: Game) -> None:
    assert game.envelope is not None
    cards = [c for p in game.players for c in p.hand] + list(game.envelope) + set_aside(game)
    assert Counter(cards) == Counter(game.deck) and len(cards) == 21
    check_table_invariants(game)


def _y2023_views(game: RandomTable) -> None:
    check_private_views(game.game, game.events)


@dataclass(frozen=True)
class Case:
    """An edition's random games: its players' range, how many steps a game is played,
    where every card is (checked on the state), and what each seat may see."""

    game: Callable[[int, int], RandomTable]
    players: tuple[int, int]
    steps: st.SearchStrategy[int]
    accounted: Callable[[Game], None]
    views: Callable[[RandomTable], None]


CASES = {
    "liars": Case(
        lambda seed, players: RandomLiars(seed=seed, players=players),
        (3, 6),
        st.integers(20, 400),
        check_liars_invariants,
        _liars_views,
    ),
    "y2023": Case(
        lambda seed, players: RandomY2023(seed=seed, players=players),
        (2, 6),
        st.just(300),
        _y2023_accounted,
        _y2023_views,
    ),
}


def _game(case: Case, data: st.DataObject) -> tuple[RandomTable, int]:
    """A random game of the case, set up, and how many steps to play (seed, players and
    length drawn by hypothesis)."""
    seed = data.draw(st.integers(0, 10**6), label="seed")
    players = data.draw(st.integers(*case.players), label="players")
    game = case.game(seed, players)
    game.setup()
    return game, data.draw(case.steps, label="steps")


@pytest.mark.parametrize("key", list(CASES))
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_every_card_is_in_exactly_one_place_at_every_step(key: str, data: st.DataObject) -> None:
    case = CASES[key]
    game, steps = _game(case, data)
    for _ in range(steps):
        if game.game.phase is Phase.ENDED:
            break
        game.step()
        case.accounted(game.game)


@pytest.mark.parametrize("key", list(CASES))
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_no_private_view_names_a_card_its_seat_was_not_shown(key: str, data: st.DataObject) -> None:
    case = CASES[key]
    game, steps = _game(case, data)
    for _ in range(steps):
        if game.game.phase is Phase.ENDED:
            break
        game.step()
        case.views(game)
