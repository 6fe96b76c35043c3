"""What a computer detective knows: its seat's notebook (engine/notebook) and nothing else,
worked out as deep as its level thinks.

A novice keeps only its hand and the cards shown to it; a sleuth works out every cell its
facts force; an inspector also every cell's exact odds. A caller that decides again and
again in one game (the bot's scheduler, the demo, the simulations) keeps a `Reading` for
each seat and hands it in: the notebook is then read on from where it was last read while
the record only grows, not from the deal each time, and an unchanged case is solved once.
Nothing is kept anywhere else: without a reading, each decision reads from the deal."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from engine.computer import Level
from engine.events import Event, GameStarted
from engine.notebook.facts import ENVELOPE, Case, Holding, Owner, SourceKind
from engine.notebook.observe import Step, notebook_steps
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


def mind_of(
    events: Sequence[Event], seat: int, level: Level, reading: Reading | None = None
) -> Mind:
    """The seat's mind after the events, at its level (`reading`: the seat's reading of
    this game so far, read on and kept; None: read from the deal)."""
    if reading is None:
        reading = Reading(seat)
    elif reading.seat != seat:
        raise ValueError(f"a reading of seat {reading.seat}, not of seat {seat}")
    case = reading.case(events)
    if level is Level.NOVICE:
        case = replace(case, facts=tuple(f for f in case.facts if f.source.kind in _NOVICE_KINDS))
    return Mind(seat, case, reading.solution(case, level is Level.INSPECTOR))


class Reading:
    """A computer detective's reading of its seat's notebook in one game, kept by the
    caller (one per game and seat, used by one decision at a time): the events read so far,
    the steps still to come and the case they made; and the case last solved, with and
    without the odds, with its solution."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self._read: list[Event] = []  # the events read, the steps' own record
        self._steps: Iterator[Step] = iter(())
        self._case: Case | None = None
        self._solved: dict[bool, tuple[Case, Solution]] = {}

    def case(self, events: Sequence[Event]) -> Case:
        """The seat's case after the events: read on from where this reading stopped when
        the record has only grown since (the events read are its first ones), else from the
        deal. ValueError before the deal."""
        read = len(self._read)
        if self._case is None or read > len(events) or list(events[:read]) != self._read:
            self._from_the_deal(events)
        case = self._case
        assert case is not None
        try:
            while len(self._read) < len(events):
                self._read.append(events[len(self._read)])  # the steps read it next
                _, _, case = next(self._steps)
        except BaseException:
            self._case = None  # half read: the next ask reads from the deal
            raise
        self._case = case
        return case

    def solution(self, case: Case, odds: bool) -> Solution:
        """The case solved (with every cell's odds, or only what its facts force), once
        while it stays the same."""
        kept = self._solved.get(odds)
        if kept is None or kept[0] != case:
            kept = self._solved[odds] = (case, solve(case, odds=odds))
        return kept[1]

    def _from_the_deal(self, events: Sequence[Event]) -> None:
        """Read again, through the deal: one step for each event from it on."""
        dealt = next((i for i, e in enumerate(events) if isinstance(e, GameStarted)), None)
        if dealt is None:
            raise ValueError("no cards dealt yet")
        self._read = list(events[: dealt + 1])
        self._steps = notebook_steps(self._read, self.seat)
        _, _, self._case = next(self._steps)
