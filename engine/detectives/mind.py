"""What a computer detective knows: its seat's notebook (engine/notebook) and nothing else,
worked out as deep as its level thinks.

A novice keeps only its hand and the cards shown to it; a sleuth works out every cell its
facts force; an inspector also every cell's exact odds. The solving is cached by the case
itself, so several decisions on one unchanged notebook solve it once; and a seat's notebook
is read on from where it was last read while the same record only grows (a game played
out in one process: the simulations, a long game), not from the deal each time."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache

from engine.computer import Level
from engine.events import Event, GameStarted
from engine.notebook.facts import ENVELOPE, Case, Holding, Owner, SourceKind
from engine.notebook.observe import notebook_steps
from engine.notebook.solve import Solution, solve

# What a novice writes down: its hand and the cards it was shown.
_NOVICE_KINDS = frozenset({SourceKind.HAND, SourceKind.SHOWN, SourceKind.SHOWN_BY_GM})


@dataclass(frozen=True)
class Mind:
    """A seat's case and what its level makes of it."""

    seat: int
    case: Case
    solution: Solution

    def owner(self, card: str) -> Owner | None:
        """The card's owner when the facts force it."""
        for owner in self.case.owners:
            if self.solution.forced.get(Holding(card, owner)) is True:
                return owner
        return None

    def chance(self, card: str, owner: Owner) -> float:
        """How likely the owner holds the card: the exact odds (an inspector), else 1 or 0
        where forced and an even guess among the owners still open."""
        holding = Holding(card, owner)
        if self.solution.odds:
            return float(self.solution.odds.get(holding, Fraction(0)))
        forced = self.solution.forced.get(holding)
        if forced is not None:
            return 1.0 if forced else 0.0
        open_owners = [
            o for o in self.case.owners if self.solution.forced.get(Holding(card, o)) is None
        ]
        return 1.0 / len(open_owners) if open_owners else 0.0

    def envelope(self) -> tuple[str | None, ...]:
        """Each category's envelope card where the facts force it."""
        return tuple(
            next((c for c in category if self.owner(c) == ENVELOPE), None)
            for category in self.case.categories
        )

    def best_guess(self) -> tuple[tuple[str, ...], float]:
        """The likeliest card of each category in the envelope, and the product of their
        chances (a guess at the accusation's odds)."""
        cards = []
        odds = 1.0
        for category in self.case.categories:
            card = max(category, key=lambda c: (self.chance(c, ENVELOPE), c))
            cards.append(card)
            odds *= self.chance(card, ENVELOPE)
        return tuple(cards), odds


def mind_of(events: list[Event], seat: int, level: Level) -> Mind:
    """The seat's mind after the events, at its level."""
    case = _read(events, seat)
    if level is Level.NOVICE:
        case = replace(case, facts=tuple(f for f in case.facts if f.source.kind in _NOVICE_KINDS))
    return Mind(seat, case, _solved(case, level is Level.INSPECTOR))


@lru_cache(maxsize=256)
def _solved(case: Case, odds: bool) -> Solution:
    return solve(case, odds=odds)


@dataclass
class _Reading:
    """A seat's notebook read through the first `read` events of the record `events` (the
    list itself: it only grows), the last of them, its steps still to come, its case."""

    events: list[Event]
    steps: Iterator[tuple[Event, int, Case]]
    read: int
    last: Event
    case: Case


_READINGS: dict[tuple[int, int], _Reading] = {}  # (the record's id, the seat) -> reading
_KEPT = 32  # readings kept, the oldest forgotten first


def _read(events: list[Event], seat: int) -> Case:
    """The seat's case after the events: read on from the last reading of the same record
    when the record has only grown since, else from the deal. ValueError before it."""
    key = (id(events), seat)
    reading = _READINGS.pop(key, None)
    if (
        reading is None
        or reading.events is not events
        or not 0 < reading.read <= len(events)
        or events[reading.read - 1] is not reading.last
    ):
        reading = _first_reading(events, seat)
    while reading.read < len(events):
        reading.last, _, reading.case = next(reading.steps)
        reading.read += 1
    _READINGS[key] = reading  # the newest last
    while len(_READINGS) > _KEPT:
        del _READINGS[next(iter(_READINGS))]
    return reading.case


def _first_reading(events: list[Event], seat: int) -> _Reading:
    """The seat's notebook read from the deal: one step for each event from it on."""
    dealt = next((i for i, e in enumerate(events) if isinstance(e, GameStarted)), None)
    if dealt is None:
        raise ValueError("no cards dealt yet")
    steps = notebook_steps(events, seat)
    last, _, case = next(steps)
    return _Reading(events, steps, dealt + 1, last, case)
