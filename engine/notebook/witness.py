"""What the questions of one case's reasons (engine/notebook/explain.py) found, kept to
answer its next questions without a search: a deal found that fits some facts proves that
none of the facts it fits (all of them checked, not only those asked about) force a cell
it makes the other way; facts that force a cell force it with any more facts too.
"""

from __future__ import annotations

from engine.notebook.grid import TRUE, Grid
from engine.notebook.residue import Residue


class Witnesses:
    """The deals found for one grid's questions and the sets of facts found forcing a
    cell (each set a bit mask over the case's facts, bit i for fact i)."""

    def __init__(self, grid: Grid, facts: int) -> None:
        self.grid = grid
        width = grid.width
        self.clauses = [
            (1 << fact, [(cell // width, cell % width, holds) for cell, holds in literals])
            for literals, fact in grid.clauses
        ]
        self.every_fact = (1 << facts) - 1
        self.deals: list[tuple[int, list[int]]] = []  # (facts it fits, each card's owner)
        self.forcing: dict[tuple[int, bool], list[int]] = {}

    def known(self, facts: int, cell: int, value: bool) -> bool | None:
        """Whether these facts force the cell to the value, if what was found says so."""
        if any(mask & ~facts == 0 for mask in self.forcing.get((cell, value), ())):
            return True
        card, owner = divmod(cell, self.grid.width)
        for fitted, owners in self.deals:
            if facts & ~fitted == 0 and (owners[card] == owner) != value:
                return False
        return None

    def forced(self, facts: int, cell: int, value: bool) -> None:
        """These facts were found forcing the cell to the value."""
        self.forcing.setdefault((cell, value), []).append(facts)

    def found(self, values: list[int], residue: Residue, where: list[int]) -> None:
        """A deal was found: the propagated values' settled cards and each open card in
        its slot (`where`, by position in the residue; a pool's owners take its cards in
        turn, as their rooms allow: any such split is a deal)."""
        width = self.grid.width
        owners = [-1] * len(self.grid.cards)
        for cell, value in enumerate(values):
            if value == TRUE:
                owners[cell // width] = cell % width
        left = [list(slot.rooms) for slot in residue.slots]
        for position, slot_index in enumerate(where):
            rooms = left[slot_index]
            k = next(k for k, room in enumerate(rooms) if room)
            rooms[k] -= 1
            owners[residue.cards[position]] = residue.slots[slot_index].owners[k]
        self.deals.append((self._fitted(owners), owners))

    def _fitted(self, owners: list[int]) -> int:
        fitted = self.every_fact
        for bit, literals in self.clauses:
            if fitted & bit and not any((owners[c] == o) == holds for c, o, holds in literals):
                fitted &= ~bit
        return fitted
