"""decide(state, command, now) -> events: the one entry point of the rules.

`decide_and_apply` is the same decision with the state after each event (a Decision), for
callers that go on with the state: the events are folded once, by the engine. Both take
the registry whose formats the game may be in (engine/registry.py); the shipped one
(engine/editions.py `REGISTRY`) unless told.
"""

from __future__ import annotations

from datetime import datetime

from engine import commands as cmd
from engine.decision import Decision
from engine.editions import REGISTRY
from engine.events import Event
from engine.registry import Registry
from engine.state import Game


def decide_and_apply(
    state: Game | None, command: cmd.Command, now: datetime, registry: Registry = REGISTRY
) -> Decision:
    """Validate a command against the state; its events with the state after each, or a
    RuleError.

    `now` must be timezone-aware. A deadline command that is stale or early decides no event.
    """
    return registry.decide_and_apply(state, command, now)


def decide(
    state: Game | None, command: cmd.Command, now: datetime, registry: Registry = REGISTRY
) -> list[Event]:
    """The events a command causes (see decide_and_apply), or a RuleError."""
    return decide_and_apply(state, command, now, registry).events
