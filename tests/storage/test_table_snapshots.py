"""A classic game's state (token places are rooms or squares) survives a snapshot."""

from __future__ import annotations

import json

from engine.queries import player_view
from simulation.tableplay import RandomTable
from storage.snapshots import decode_state, encode_state


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
