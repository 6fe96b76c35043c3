"""Large notebook cases with the odds the solver gave them, recorded once, so that a new
way of counting can be checked against the old one without running it: 200 moments of
simulated games on full decks (bench/notebook_games.py: forum and table, three to ten
players), each with a digest of its exact solution (every cell's fraction, the number of
fitting deals, whether any fits).

`recorded_odds.txt` holds one case a line: the setup (its index in `SETUPS`), the game's
seed, the moment (an index into the game's cases) and the digest. It was written by the
solver of commit fcdfc15 (the dynamic programme over the cards of engine/notebook/count.py
before issue 41):

    python -m tests.engine.notebook.recorded   # prints the file for the cases it lists
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from bench.notebook_games import BIG_FORUM, simulate
from bench.notebook_games import SETUPS as SMALLER
from engine.notebook.facts import Case
from engine.notebook.solve import Solution, solve

SETUPS = SMALLER + BIG_FORUM
RECORDED = Path(__file__).with_name("recorded_odds.txt")

Moment = tuple[int, int, int]  # setup, seed, case


def digest(solution: Solution) -> str:
    """A short fingerprint of the whole solution: every cell's exact odds, the deals."""
    cells = sorted(
        f"{h.card},{h.owner},{p.numerator}/{p.denominator}" for h, p in solution.odds.items()
    )
    text = f"{solution.consistent};{solution.deals};{';'.join(cells)}"
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def recorded() -> list[tuple[Moment, str]]:
    """The recorded moments and their digests."""
    found = []
    for line in RECORDED.read_text().splitlines():
        setup, seed, moment, fingerprint = line.split()
        found.append(((int(setup), int(seed), int(moment)), fingerprint))
    return found


def cases_of(moments: list[Moment]) -> list[Case]:
    """The cases of these moments (each game simulated once)."""
    games: dict[tuple[int, int], tuple[Case, ...]] = {}
    found = []
    for setup, seed, moment in moments:
        if (setup, seed) not in games:
            games[setup, seed] = simulate(SETUPS[setup], seed).cases
        found.append(games[setup, seed][moment])
    return found


def main() -> None:
    moments = [moment for moment, _ in recorded()]
    for moment, case in zip(moments, cases_of(moments), strict=True):
        print(*moment, digest(solve(case, odds=True)))


if __name__ == "__main__":
    main()
