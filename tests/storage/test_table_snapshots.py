"""A classic game's state (token places are rooms or squares) survives a snapshot."""

from __future__ import annotations

import inspect
import json
from typing import Any

import pytest

import engine.y2023.evolve
from engine.queries import player_view
from engine.y2023.state import y2023_of, y2023_part
from simulation.tableplay import RandomTable
from simulation.y2023play import RandomY2023
from storage.snapshots import decode_state, encode_state, snapshot_format


def test_a_classic_game_state_round_trips_through_a_json_snapshot() -> None:
    game = RandomTable(seed=2, players=5)
    game.setup()
    while len(game.game.table.suggestions) < 3:  # type: ignore[union-attr]
        game.step()
    state = game.game
    assert state.table is not None and state.running
    assert decode_state(json.loads(json.dumps(encode_state(state)))) == state


def test_the_suggester_sees_the_cards_shown_to_them_at_the_table() -> None:
    state = RandomTable(seed=2, players=5).play()
    assert state.table is not None and state.table.suggestions
    for player in state.players:
        shown = dict(player_view(state, player.user).shown_to_me)
        mine = {
            s.number: s.card
            for s in state.table.suggestions
            if s.suggester == player.seat and s.card is not None
        }
        assert shown == mine


def test_a_2023_game_state_round_trips_through_a_json_snapshot() -> None:
    """Its cards in rooms, clue deck, revealed and seen cards survive a snapshot."""
    game = RandomY2023(seed=5, players=3)
    game.setup()
    while game.game.running and not (game.game.table and y2023_part(game.game.table).seen):
        game.step()
    state = game.game
    assert state.table is not None and y2023_of(state.table) is not None
    assert decode_state(json.loads(json.dumps(encode_state(state)))) == state


def test_the_snapshot_format_changes_with_the_editions_evolve_rules(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    before = snapshot_format()
    real = inspect.getsource

    def edited(obj: Any) -> str:
        return real(obj) + ("# changed" if obj is engine.y2023.evolve else "")

    snapshot_format.cache_clear()
    monkeypatch.setattr(inspect, "getsource", edited)
    try:
        assert snapshot_format() != before
    finally:
        snapshot_format.cache_clear()
