"""A case in numbers for the solver: cards and owners by index, every clause as cells,
and plain propagation over them.

A cell is `card * width + owner` (indices into `Grid.cards` and `Grid.owners`). The deal's
structure is three kinds of *group*, each a set of cells of which exactly `need` are true:
a card's owners (one), an owner's cards (its size) and the envelope's cards of one
category (one). Propagation fills what a group's count or a clause down to one open
literal decides, and keeps for every cell it fills the facts it used (a bit mask over
`case.facts`), so that a reason can start from them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from engine.cards import CardId
from engine.notebook.facts import ENVELOPE, Case, Holding, Owner

UNKNOWN, TRUE, FALSE = 0, 1, 2

Literals = tuple[tuple[int, bool], ...]  # (cell, holds)


@dataclass(frozen=True)
class Grid:
    """The case by index. `clauses`: each clause's literals on cards and owners of the
    case with the index of its fact (a literal on anything else is decided, as nothing
    holds such a card; a clause it satisfies is left out). `broken`: the facts with a
    clause nothing can satisfy."""

    cards: tuple[CardId, ...]
    owners: tuple[Owner, ...]
    category: tuple[int, ...]  # of each card
    sizes: tuple[int, ...]  # of each owner (the envelope's: one card per category)
    envelope: int  # the envelope's owner index
    clauses: tuple[tuple[Literals, int], ...]
    broken: frozenset[int]
    groups: tuple[tuple[tuple[int, ...], int], ...]  # (cells, how many of them are true)
    groups_of_cell: tuple[tuple[int, ...], ...]
    clauses_of_cell: tuple[tuple[int, ...], ...]
    card_index: dict[CardId, int]
    owner_index: dict[Owner, int]

    @property
    def width(self) -> int:
        return len(self.owners)

    @property
    def cell_count(self) -> int:
        return len(self.cards) * len(self.owners)

    def cell(self, holding: Holding) -> int | None:
        """The holding's cell; None if its card or owner is not in the case."""
        card = self.card_index.get(holding.card)
        owner = self.owner_index.get(holding.owner)
        if card is None or owner is None:
            return None
        return card * self.width + owner

    def holding(self, cell: int) -> Holding:
        return Holding(self.cards[cell // self.width], self.owners[cell % self.width])

    def keeping(self, facts: Iterable[int]) -> Grid:
        """The same grid with only the clauses of these facts."""
        kept = set(facts)
        clauses = tuple(clause for clause in self.clauses if clause[1] in kept)
        return replace(
            self,
            clauses=clauses,
            broken=self.broken & kept,
            clauses_of_cell=_clauses_of_cell(clauses, self.cell_count),
        )


def grid_of(case: Case, facts: Iterable[int] | None = None) -> Grid:
    """The case's grid, with all its facts or only those of the given indices."""
    cards = case.cards
    owners = case.owners
    card_index = {card: i for i, card in enumerate(cards)}
    owner_index = {owner: i for i, owner in enumerate(owners)}
    width = len(owners)
    chosen = range(len(case.facts)) if facts is None else sorted(set(facts))
    clauses: list[tuple[Literals, int]] = []
    broken: set[int] = set()
    for index in chosen:
        for clause in case.facts[index].clauses:
            literals: list[tuple[int, bool]] = []
            satisfied = False
            for literal in clause.literals:
                card = card_index.get(literal.holding.card)
                owner = owner_index.get(literal.holding.owner)
                if card is None or owner is None:
                    satisfied |= not literal.holds
                elif (card * width + owner, literal.holds) not in literals:
                    literals.append((card * width + owner, literal.holds))
            if satisfied:
                continue
            if not literals:
                broken.add(index)
            clauses.append((tuple(literals), index))
    category = tuple(k for k, cat in enumerate(case.categories) for _ in cat)
    sizes = tuple(case.size_of(owner) for owner in owners)
    groups = _groups(category, sizes, owner_index[ENVELOPE], width, len(case.categories))
    groups_of_cell: list[list[int]] = [[] for _ in range(len(cards) * width)]
    for g, (cells, _) in enumerate(groups):
        for cell in cells:
            groups_of_cell[cell].append(g)
    return Grid(
        cards=cards,
        owners=owners,
        category=category,
        sizes=sizes,
        envelope=owner_index[ENVELOPE],
        clauses=tuple(clauses),
        broken=frozenset(broken),
        groups=groups,
        groups_of_cell=tuple(tuple(g) for g in groups_of_cell),
        clauses_of_cell=_clauses_of_cell(clauses, len(cards) * width),
        card_index=card_index,
        owner_index=owner_index,
    )


def _clauses_of_cell(
    clauses: Sequence[tuple[Literals, int]], cells: int
) -> tuple[tuple[int, ...], ...]:
    found: list[list[int]] = [[] for _ in range(cells)]
    for c, (literals, _) in enumerate(clauses):
        for cell, _ in literals:
            if c not in found[cell]:
                found[cell].append(c)
    return tuple(tuple(c) for c in found)


def _groups(
    category: Sequence[int], sizes: Sequence[int], envelope: int, width: int, categories: int
) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Each card's owners (one), each owner's cards (its size), each category's cards in
    the envelope (one)."""
    cards = len(category)
    found = [(tuple(card * width + o for o in range(width)), 1) for card in range(cards)]
    for owner, size in enumerate(sizes):
        if owner != envelope:
            found.append((tuple(card * width + owner for card in range(cards)), size))
    for k in range(categories):
        cells = tuple(card * width + envelope for card in range(cards) if category[card] == k)
        found.append((cells, 1))
    return tuple(found)


class Propagation:
    """Plain propagation of a grid's clauses and groups, with some cells assumed first
    ((cell, TRUE or FALSE), resting on no fact). `values`: each cell's value; `because`:
    the facts each settled cell rests on (bit i for `case.facts[i]`); `conflict`: on a
    contradiction, the facts it rests on (else None)."""

    def __init__(self, grid: Grid, assumed: Sequence[tuple[int, int]] = ()) -> None:
        self.grid = grid
        self.values = [UNKNOWN] * grid.cell_count
        self.because = [0] * grid.cell_count
        self.conflict: int | None = None
        self._queue: list[int] = []
        self._run(assumed)

    def _run(self, assumed: Sequence[tuple[int, int]]) -> None:
        grid = self.grid
        if grid.broken:
            self.conflict = 1 << min(grid.broken)
            return
        for cell, value in assumed:
            if not self._settle(cell, value, 0):
                return
        groups: Iterable[int] = range(len(grid.groups))
        clauses: Iterable[int] = range(len(grid.clauses))
        while True:
            for g in groups:
                if not self._group(g):
                    return
            for c in clauses:
                if not self._clause(c):
                    return
            if not self._queue:
                return
            queue, self._queue = self._queue, []
            groups = sorted({g for cell in queue for g in grid.groups_of_cell[cell]})
            clauses = sorted({c for cell in queue for c in grid.clauses_of_cell[cell]})

    def _settle(self, cell: int, value: int, mask: int) -> bool:
        known = self.values[cell]
        if known == UNKNOWN:
            self.values[cell] = value
            self.because[cell] = mask
            self._queue.append(cell)
            return True
        if known != value:
            self.conflict = mask | self.because[cell]
            return False
        return True

    def _group(self, g: int) -> bool:
        cells, need = self.grid.groups[g]
        values, because = self.values, self.because
        true = false = 0
        true_mask = false_mask = 0
        for cell in cells:
            value = values[cell]
            if value == TRUE:
                true += 1
                true_mask |= because[cell]
            elif value == FALSE:
                false += 1
                false_mask |= because[cell]
        open_ = len(cells) - true - false
        if true > need:
            self.conflict = true_mask
            return False
        if true + open_ < need:
            self.conflict = false_mask
            return False
        if not open_:
            return True
        if true == need:
            fill, mask = FALSE, true_mask
        elif true + open_ == need:
            fill, mask = TRUE, false_mask
        else:
            return True
        return all(self._settle(cell, fill, mask) for cell in cells if values[cell] == UNKNOWN)

    def _clause(self, c: int) -> bool:
        literals, fact = self.grid.clauses[c]
        values, because = self.values, self.because
        mask = 1 << fact
        last: tuple[int, bool] | None = None
        open_ = 0
        for cell, holds in literals:
            value = values[cell]
            if value == UNKNOWN:
                open_ += 1
                last = (cell, holds)
            elif (value == TRUE) == holds:
                return True
            else:
                mask |= because[cell]
        if open_ == 0:
            self.conflict = mask
            return False
        if open_ == 1 and last is not None:
            return self._settle(last[0], TRUE if last[1] else FALSE, mask)
        return True
