"""The reasons of every forced cell after every update of a Liars Edition game, recorded
once, so that a quicker way of finding them can be checked to give the same reason for
every cell: a seeded game of the simulation's random players (simulation/liarsplay.py),
whose passes carry every fact over (engine/notebook/carry.py), seen from two seats.

`recorded_reasons.txt` holds one update a line: the seat, the update's index among the
seat's cases and a digest of every forced cell's reason (`explain_all`). It was written
by the reasons of commit 0bad67a (before they kept what they found across cases):

    python -m tests.engine.notebook.recorded_reasons   # prints the file
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

from engine.notebook.explain import explain_all
from engine.notebook.facts import Case, Holding
from engine.notebook.observe import cases_over_time
from engine.notebook.solve import solve
from engine.settings import GameFormat, NotebookHelp, Settings
from simulation.liarsplay import RandomLiars

SEED, PLAYERS, SEATS = 0, 4, (0, 1)
RECORDED = Path(__file__).with_name("recorded_reasons.txt")


def liars_cases() -> Iterator[tuple[int, int, Case]]:
    """(seat, update, the seat's case) for every update of the recorded game's seats."""
    settings = Settings(
        format=GameFormat.LIARS, notebook=NotebookHelp.ODDS, liar_window=timedelta(seconds=30)
    )
    game = RandomLiars(seed=SEED, players=PLAYERS, settings=settings)
    game.play(max_steps=600)
    for seat in SEATS:
        for update, (_, case) in enumerate(cases_over_time(game.events, seat)):
            yield seat, update, case


def digest(reasons: dict[Holding, tuple[int, ...]]) -> str:
    """A short fingerprint of every cell's reason (the facts' indices)."""
    cells = sorted(reasons.items())
    text = ";".join(f"{h.card},{h.owner}:{','.join(map(str, r))}" for h, r in cells)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def reasons_of(case: Case) -> dict[Holding, tuple[int, ...]]:
    return explain_all(case, solve(case, odds=False))


def recorded() -> dict[tuple[int, int], str]:
    """The recorded digest of each (seat, update)."""
    found = {}
    for line in RECORDED.read_text().splitlines():
        seat, update, fingerprint = line.split()
        found[int(seat), int(update)] = fingerprint
    return found


def main() -> None:
    for seat, update, case in liars_cases():
        print(seat, update, digest(reasons_of(case)))


if __name__ == "__main__":
    main()
