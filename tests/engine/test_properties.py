"""Hypothesis properties of the rules: conservation, quotas, privacy, replay, determinism."""

from __future__ import annotations

from dataclasses import fields

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import REGISTRY
from engine import commands as cmd
from engine.codec import event_to_dict
from engine.errors import RuleError
from engine.evolve import replay
from engine.queries import player_view, public_view
from engine.settings import Settings
from engine.state import Answer
from simulation.randomplay import RandomGame
from tests.support.invariants import check_invariants

seeds = st.integers(min_value=0, max_value=2**63)
player_counts = st.integers(min_value=3, max_value=10)
extras = st.integers(min_value=0, max_value=2)


def _played(seed: int, players: int, steps: int, extra: int = 0) -> RandomGame:
    game = RandomGame(seed=seed, players=players, settings=Settings(extra_cards=extra))
    game.setup()
    for _ in range(steps):
        if not game.game.running and not game.game.paused:
            break
        game.step()
    return game


@given(seed=seeds, players=player_counts, extra=extras)
def test_cards_are_conserved_envelope_plus_hands_is_the_deck(
    seed: int, players: int, extra: int
) -> None:
    game = _played(seed, players, 0, extra).game
    assert game.envelope is not None
    dealt = sorted([c for p in game.players for c in p.hand] + list(game.envelope))
    assert dealt == sorted(game.deck)
    assert len(set(dealt)) == len(dealt)
    assert len(game.deck) == 3 * players + 3 + 3 * extra


@settings(max_examples=60)
@given(seed=seeds, players=player_counts, steps=st.integers(0, 400))
def test_quota_never_goes_below_zero_and_invariants_hold(
    seed: int, players: int, steps: int
) -> None:
    game = RandomGame(seed=seed, players=players)
    game.setup()
    for _ in range(steps):
        if not game.game.running:
            break
        game.step()
        check_invariants(game.game)
        assert all(game.game.quota_left(p) >= 0 for p in game.game.players)


@settings(max_examples=60)
@given(seed=seeds, players=player_counts, steps=st.integers(0, 200), data=st.data())
def test_only_the_addressed_player_can_answer(
    seed: int, players: int, steps: int, data: st.DataObject
) -> None:
    game = _played(seed, players, steps)
    pending = game.game.pending_answers()
    if not game.game.running or game.game.paused or not pending:
        return
    suggestion = data.draw(st.sampled_from(pending))
    target_user = game.game.players[suggestion.target].user
    for player in game.game.players:
        if player.user == target_user:
            continue
        for command in (
            cmd.Refute(actor=player.user, suggestion=suggestion.id, card=suggestion.suspect),
            cmd.DeclareNoRefutation(actor=player.user, suggestion=suggestion.id),
        ):
            before = game.state
            assert game.run(command) == []
            assert game.state is before
    outsider = cmd.DeclareNoRefutation(actor=999_999, suggestion=suggestion.id)
    assert game.run(outsider) == []
    stored = game.game.suggestion(suggestion.id)
    assert stored is not None and stored.answer is Answer.PENDING


def _cards_in(value: object) -> set[str]:
    """Every string reachable in a view (dataclasses, tuples, dicts)."""
    found: set[str] = set()
    if isinstance(value, str):
        found.add(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            found |= _cards_in(key) | _cards_in(item)
    elif isinstance(value, tuple | list):
        for item in value:
            found |= _cards_in(item)
    elif hasattr(value, "__dataclass_fields__"):
        for f in fields(value):  # type: ignore[arg-type]
            found |= _cards_in(getattr(value, f.name))
    return found


@settings(max_examples=60)
@given(seed=seeds, players=player_counts, steps=st.integers(0, 300))
def test_no_player_query_exposes_another_hand_or_the_envelope(
    seed: int, players: int, steps: int
) -> None:
    game = _played(seed, players, steps).game
    if not game.running:
        return
    assert game.envelope is not None
    named_in_thread = {c for s in game.suggestions for c in s.cards}
    roles = {p.role for p in game.players}
    secrets = {c for p in game.players for c in p.hand} | set(game.envelope)
    for player in game.players:
        view = player_view(game, player.user)
        assert view.hand == player.hand
        shown = {card for _, card in view.shown_to_me}
        for suggestion_id, card in view.shown_to_me:
            refuted = game.suggestion(suggestion_id)
            assert refuted is not None and refuted.suggester == player.seat
            assert refuted.card == card
        accused = set(view.my_accusation.cards) if view.my_accusation else set()
        legit = set(player.hand) | shown | named_in_thread | accused | roles
        assert not (secrets - legit) & _cards_in(view)
    hands = {c for p in game.players for c in p.hand}
    public = public_view(game)
    public_cards = _cards_in(public.seats)
    assert not (hands | set(game.envelope)) - roles & public_cards


@settings(max_examples=40)
@given(seed=seeds, players=player_counts, steps=st.integers(0, 500))
def test_replay_from_events_gives_the_same_state(seed: int, players: int, steps: int) -> None:
    game = _played(seed, players, steps)
    assert replay(game.events) == game.state
    stored = [REGISTRY.codec.event_from_dict(event_to_dict(e)) for e in game.events]
    assert replay(stored) == game.state


@settings(max_examples=40)
@given(seed=seeds, players=player_counts, steps=st.integers(0, 300))
def test_same_seed_and_commands_give_the_same_events(seed: int, players: int, steps: int) -> None:
    first = _played(seed, players, steps)
    second = RandomGame(seed=seed, players=players)
    for command, now in first.commands:
        second.now = now
        second.run(command)
    assert second.events == first.events


def test_a_refused_command_changes_nothing() -> None:
    game = _played(7, 4, 50)
    before = (game.state, list(game.events))
    with_error = cmd.Accuse(actor=424242, suspect="x", weapon="y", place="z")
    assert game.run(with_error) == []
    assert (game.state, game.events) == before
    try:
        from engine.decide import decide

        decide(game.state, with_error, game.now)
    except RuleError as error:
        assert error.code == "not_a_player"
    else:
        raise AssertionError("a stranger's accusation was accepted")
