"""A command's outcome: the events it causes and the state after each, folded once.

Handlers build a Decision event by event, so later rules see earlier effects; the caller
(storage, the planner) reads the states from it instead of folding the events again.
"""

from __future__ import annotations

from collections.abc import Iterator

from engine.errors import NoGame
from engine.events import Event
from engine.evolve import evolve
from engine.state import Game


class Decision:
    """The events emitted so far; `states[i]` is the state right after `events[i]`."""

    __slots__ = ("before", "events", "states")

    def __init__(self, before: Game | None, *events: Event) -> None:
        self.before = before
        self.events: list[Event] = []
        self.states: list[Game] = []
        for event in events:
            self.emit(event)

    def emit(self, event: Event) -> None:
        """Add an event and fold it into the state."""
        self.states.append(evolve(self.states[-1] if self.states else self.before, event))
        self.events.append(event)

    def extend(self, later: Decision) -> None:
        """Add a decision taken on this one's state (its states are already folded)."""
        assert later.before is self.after, "a later decision starts from this one's state"
        self.events.extend(later.events)
        self.states.extend(later.states)

    @property
    def after(self) -> Game | None:
        """The state after every event (the state before, if there is none)."""
        return self.states[-1] if self.states else self.before

    @property
    def state(self) -> Game:
        """The state after every event; NoGame if there is no game at all."""
        after = self.after
        if after is None:
            raise NoGame()
        return after

    def steps(self) -> Iterator[tuple[Event, Game | None, Game]]:
        """Each event with the state just before it and just after it."""
        before = self.before
        for event, after in zip(self.events, self.states, strict=True):
            yield event, before, after
            before = after
