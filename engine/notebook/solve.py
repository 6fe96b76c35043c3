"""What a player's facts prove, exactly: the cells the same in every deal that fits them
(`forced`) and how likely each cell is (`odds`), every fitting deal being equally likely.

A *deal* gives every card of the case to one owner: each seat (and the face-up cards, the
cards in rooms) exactly its size, the envelope one card of each category. It *fits* when
every clause of every fact holds. The random choices of the game (which card a player
shows, and so on) are equally likely in every fitting deal given the hand sizes, so the
fitting deals are equally likely and the odds are their proportions.

The work: plain propagation first (engine/notebook/grid.py), then what is still open
(engine/notebook/residue.py). With the odds: an exact count of the fitting deals and of
those making each cell true (engine/notebook/count.py); a cell is forced when none or all
of them make it true. The forced cells alone: a search for deals (engine/notebook/
search.py), which stays quick with many seats where the count does not; past its budget,
the count. Why a cell is forced is engine/notebook/explain.py.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from engine.notebook.count import count
from engine.notebook.facts import Case, Holding
from engine.notebook.grid import FALSE, TRUE, UNKNOWN, Grid, Propagation, grid_of
from engine.notebook.residue import residue_of
from engine.notebook.search import Exhausted, possible_slots

SEARCH_BUDGET = 20_000  # search steps before counting instead


@dataclass(frozen=True)
class Solution:
    """What the facts prove. `consistent`: some deal fits them (when not, nothing else
    means anything); `deals`: how many fit (counted with the odds only); `forced`: every
    cell (each card against every owner, the envelope and the face-up cards included)
    with the same value in all of them; `odds`: each cell's probability, when asked for
    (each card's sum to one)."""

    consistent: bool
    deals: int = 0
    forced: Mapping[Holding, bool] = field(default_factory=dict)
    odds: Mapping[Holding, Fraction] = field(default_factory=dict)


INCONSISTENT = Solution(consistent=False)


def solve(case: Case, *, odds: bool) -> Solution:
    """The forced cells of the case and, with `odds`, every cell's exact probability."""
    grid = grid_of(case)
    propagated = Propagation(grid)
    if propagated.conflict is not None:
        return INCONSISTENT
    if not odds:
        settled = settle(grid, propagated.values)
        if settled is None:
            return INCONSISTENT
        forced = {grid.holding(cell): v == TRUE for cell, v in enumerate(settled) if v != UNKNOWN}
        return Solution(consistent=True, forced=forced)
    counts = count(grid, propagated.values)
    total = counts.total
    if total == 0:
        return INCONSISTENT
    forced = {}
    chances: dict[Holding, Fraction] = {}
    for cell, ways in enumerate(counts.cells):
        holding = grid.holding(cell)
        if ways == 0 or ways == total:
            forced[holding] = ways == total
        chances[holding] = Fraction(ways, total)
    return Solution(consistent=True, deals=total, forced=forced, odds=chances)


def settle(grid: Grid, values: list[int]) -> list[int] | None:
    """Every cell's value in all deals that fit the propagated values (UNKNOWN where they
    differ), found by search, or by counting past the search's budget; None when no
    deal fits."""
    residue = residue_of(grid, values)
    if residue is None:
        return None
    try:
        possible = possible_slots(residue, SEARCH_BUDGET)
    except Exhausted:
        counts = count(grid, values)
        if counts.total == 0:
            return None
        return [
            FALSE if ways == 0 else TRUE if ways == counts.total else UNKNOWN
            for ways in counts.cells
        ]
    if possible is None:
        return None
    settled = list(values)
    width = grid.width
    for position, card in enumerate(residue.cards):
        for slot_index in residue.domains[position]:
            slot = residue.slots[slot_index]
            if not possible[position] >> slot_index & 1:
                value = FALSE
            elif possible[position] == 1 << slot_index and len(slot.owners) == 1:
                value = TRUE
            else:
                continue
            for owner in slot.owners:
                settled[card * width + owner] = value
    return settled
