"""A decision in progress: events emitted so far and the state they lead to."""

from __future__ import annotations

from engine.events import Event
from engine.evolve import evolve
from engine.state import Game


class Decision:
    """Collects events, keeping the state after each so later rules see earlier effects."""

    def __init__(self, state: Game) -> None:
        self.state = state
        self.events: list[Event] = []

    def emit(self, event: Event) -> None:
        self.state = evolve(self.state, event)
        self.events.append(event)
