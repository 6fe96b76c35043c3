"""Liars Edition properties: every evidence card in exactly one place (hands, envelope,
face up, on its way left), and no seat's private view names a card it was never shown."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import events as ev
from engine.liars import events as lev
from engine.liars.queries import private_view
from engine.state import Phase
from simulation.liarsplay import RandomLiars
from tests.support.liars_invariants import check_liars_invariants


def _seen(events: list[ev.Event], seats: int) -> list[set[str]]:
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


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(3, 6), steps=st.integers(20, 400))
def test_every_card_is_in_exactly_one_place_at_every_step(
    seed: int, players: int, steps: int
) -> None:
    game = RandomLiars(seed=seed, players=players)
    game.setup()
    for _ in range(steps):
        if game.game.phase is Phase.ENDED:
            break
        game.step()
        check_liars_invariants(game.game)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(3, 6), steps=st.integers(20, 400))
def test_no_private_view_names_a_card_its_seat_was_not_shown(
    seed: int, players: int, steps: int
) -> None:
    game = RandomLiars(seed=seed, players=players)
    game.setup()
    for _ in range(steps):
        if game.game.phase is Phase.ENDED:
            break
        game.step()
        seen = _seen(game.events, players)
        for seat in range(players):
            view = private_view(game.game, seat)
            named = {*view.hand, *view.face_up} | ({view.passing} if view.passing else set())
            assert named <= seen[seat], f"seat {seat} sees {named - seen[seat]} unshown"
