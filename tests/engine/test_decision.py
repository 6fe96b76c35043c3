"""decide_and_apply: a command's events with the state after each, folded once by the engine."""

from __future__ import annotations

import pytest

from engine import commands as cmd
from engine.decide import decide, decide_and_apply
from engine.errors import NoGame
from engine.evolve import evolve, replay
from tests.support.table import DAY, T0, Table


def test_the_decision_holds_each_event_with_the_state_before_and_after_it() -> None:
    table = Table(3, start=False)
    before = table.game
    decision = decide_and_apply(before, cmd.StartGame(actor=1), T0)
    assert decision.before is before
    assert decision.events == decide(before, cmd.StartGame(actor=1), T0)
    assert len(decision.events) == len(decision.states) == 2  # dealt, day 1 opened
    assert [step[1] for step in decision.steps()] == [before, decision.states[0]]
    for event, state_before, state_after in decision.steps():
        assert evolve(state_before, event) == state_after
    assert decision.state == decision.after == replay(decision.events, before)


def test_a_new_game_decides_from_nothing_and_a_stale_deadline_changes_nothing() -> None:
    opened = decide_and_apply(None, cmd.OpenLobby(actor=1, seed=1), T0)
    assert opened.before is None and opened.state == replay(opened.events)
    assert opened.state.in_lobby(1)
    table = Table(3)
    stale = decide_and_apply(table.game, cmd.EndDay(day=2), T0 + DAY)
    assert stale.events == [] and stale.states == [] and stale.state is table.game
    nothing = decide_and_apply(None, cmd.EndDay(day=1), T0)
    assert nothing.events == [] and nothing.after is None
    with pytest.raises(NoGame):
        _ = nothing.state
