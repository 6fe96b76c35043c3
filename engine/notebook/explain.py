"""Why a cell is forced: a small set of the player's facts that forces it on its own,
together with the deal's shape (the sizes, one envelope card per category).

No fact when the shape alone forces it. Else a single fact when one does: propagation
says so at once when the cell rests on one fact (`Propagation.because`), else each fact is
solved alone for what it forces (once for every fact of the same form in a case of the
same shape, engine/notebook/recall.py). Else a minimal set, one none of whose
facts can go: from a first set that forces the cell (the facts propagation used for it or
for the contradiction its opposite meets, an earlier cell's reason, or all the facts),
by QuickXplain (halving the candidates), or from an earlier reason by deletion (dropping
each fact in turn, newest first, while the rest still force the cell). Whether some facts
force a cell is asked exactly: propagation with the cell's opposite assumed, then a short
search for a deal (engine/notebook/search.py: one is found at once when there is one), then
the count's forward pass within a bound on its states (engine/notebook/count.py: it proves
that no deal fits where the search would try every branch), then the whole search, and the
whole count past its budget. Each answer is kept for every later case by the facts'
contents (engine/notebook/recall.py), and within a case the deals found answer the
questions they settle (engine/notebook/witness.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache

from engine.cards import CardId
from engine.notebook.count import TooMany, count, deal_exists
from engine.notebook.facts import Case, Fact, Holding, Owner
from engine.notebook.grid import FALSE, TRUE, Grid, Propagation, grid_of
from engine.notebook.recall import answer_to, content, forced_alone, forced_cells, shape_of
from engine.notebook.residue import Residue, residue_of
from engine.notebook.search import DealSearch, Exhausted
from engine.notebook.solve import SEARCH_BUDGET, Solution
from engine.notebook.witness import Witnesses

REUSED = 4  # the latest reasons tried as the start of a new one
QUICK_SEARCH = 10  # search steps before the count is tried (engine/notebook/search.py)
COUNT_STATES = 50_000  # the count's states in a step before the whole search is tried


def explain(case: Case, holding: Holding, value: bool) -> tuple[int, ...]:
    """Indices into `case.facts` of a small set of facts that forces `holding` to `value`
    (the case's facts must force it; () when the deal's shape alone does). What it works
    out about the case is kept for the next cells of the same case (a few cases)."""
    return reason(explainer_of(case), holding, value)


def explain_all(case: Case, solution: Solution) -> dict[Holding, tuple[int, ...]]:
    """A reason (as `explain`) for every forced cell of the case's solution, quicker than
    one by one: a new reason may start from one found for an earlier cell."""
    if not solution.consistent:
        return {}
    explainer = Explainer(case, reuse=True)
    return {
        holding: reason(explainer, holding, value)
        for holding, value in sorted(solution.forced.items())
    }


@lru_cache(maxsize=8)
def explainer_of(case: Case) -> Explainer:
    """The case's explainer (not reusing reasons, so each answer is the same whatever was
    asked before)."""
    return Explainer(case, reuse=False)


def reason(explainer: Explainer, holding: Holding, value: bool) -> tuple[int, ...]:
    """The shape alone, else one fact alone, else a minimal set (see the module's note)."""
    if explainer.forced_by(()).get(holding) is value:
        return ()
    single = explainer.single_by_propagation(holding, value)
    if single is not None:
        return single
    for index in by_relevance(explainer, holding):
        if explainer.forced_by((index,)).get(holding) is value:
            return (index,)
    return explainer.minimal(holding, value)


def forces(case: Case, facts: Iterable[int], holding: Holding, value: bool) -> bool:
    """Whether these facts of the case alone force `holding` to `value`: no deal fits
    them with the holding the other way."""
    return explainer_of(case).forces(facts, holding, value)


class Explainer:
    """Asks which facts of one case force which cells; with `reuse`, keeps the reasons
    it found to start the next ones from."""

    def __init__(self, case: Case, *, reuse: bool) -> None:
        self.case = case
        self.reuse = reuse
        self.grid = grid_of(case)
        self.propagated = Propagation(self.grid)
        self.found: list[tuple[int, ...]] = []  # reasons of more than one fact, newest last
        self._forced: dict[tuple[int, ...], Mapping[Holding, bool]] = {}
        self.shape = shape_of(case)
        self.contents = [content(fact) for fact in case.facts]
        self.named = [_named(fact) for fact in case.facts]
        self.witnesses = Witnesses(self.grid, len(case.facts))

    def forces(self, facts: Iterable[int], holding: Holding, value: bool) -> bool:
        kept = list(facts)
        contents = tuple(sorted({self.contents[i] for i in kept}))
        answer = answer_to((self.shape, contents, holding, value))
        if not answer:
            answer.append(self._forces(kept, holding, value))
        return answer[0]

    def _forces(self, facts: list[int], holding: Holding, value: bool) -> bool:
        cell = self.grid.cell(holding)
        if cell is None:
            return not value
        mask = sum(1 << i for i in set(facts))
        known = self.witnesses.known(mask, cell, value)
        if known is not None:
            return known
        grid = self.grid.keeping(facts)
        propagated = Propagation(grid, ((cell, FALSE if value else TRUE),))
        residue = None if propagated.conflict is not None else residue_of(grid, propagated.values)
        if residue is None:
            self.witnesses.forced(mask, cell, value)
            return True
        try:
            where = DealSearch(residue, min(QUICK_SEARCH, SEARCH_BUDGET)).deal()
        except Exhausted:
            forced = not any_deal(grid, propagated.values, residue)
        else:
            if where is not None:
                self.witnesses.found(propagated.values, residue, where)
            forced = where is None
        if forced:
            self.witnesses.forced(mask, cell, value)
        return forced

    def forced_by(self, facts: tuple[int, ...]) -> Mapping[Holding, bool]:
        """The cells these facts force on their own (kept for the next question)."""
        if facts not in self._forced:
            self._forced[facts] = self._forced_by(facts)
        return self._forced[facts]

    def _forced_by(self, facts: tuple[int, ...]) -> Mapping[Holding, bool]:
        if len(facts) <= 1:  # the shape or one fact alone: the same in every case
            return forced_alone(self.case, self.case.facts[facts[0]] if facts else None)
        return forced_cells(self.grid.keeping(facts))

    def single_by_propagation(self, holding: Holding, value: bool) -> tuple[int, ...] | None:
        """The one fact propagation settled the cell from, if it used one."""
        cell = self.grid.cell(holding)
        if cell is None or self.propagated.values[cell] != (TRUE if value else FALSE):
            return None
        mask = self.propagated.because[cell]
        if mask == 0 or mask & (mask - 1):
            return None
        return (mask.bit_length() - 1,)

    def minimal(self, holding: Holding, value: bool) -> tuple[int, ...]:
        """A minimal set of facts forcing the cell (none of it can go), from a first set
        that forces it: what propagation used, an earlier reason, or all the facts."""
        starts = [list(range(len(self.case.facts)))]
        cell = self.grid.cell(holding)
        if cell is not None:
            if self.propagated.values[cell] == (TRUE if value else FALSE):
                starts.append(_indices(self.propagated.because[cell]))
            opposite = Propagation(self.grid, ((cell, FALSE if value else TRUE),))
            if opposite.conflict is not None:
                starts.append(_indices(opposite.conflict))
        start = min(starts, key=len)
        if not start:
            return ()
        if len(start) > 2:
            for earlier in reversed(self.found[-REUSED:]):
                if len(earlier) < len(start) and self.forces(earlier, holding, value):
                    kept = self._deleted(list(earlier), holding, value)
                    break
            else:
                kept = self._quick([], [], start, holding, value)
        else:
            kept = self._quick([], [], start, holding, value)
        found = tuple(sorted(kept))
        if self.reuse and len(found) > 1 and found not in self.found:
            self.found.append(found)
        return found

    def _deleted(self, kept: list[int], holding: Holding, value: bool) -> list[int]:
        """Drop each fact in turn, newest first, while the rest still force the cell (for
        a first set that is nearly minimal already)."""
        for index in reversed(list(kept)):
            trial = [i for i in kept if i != index]
            if self.forces(trial, holding, value):
                kept = trial
        return kept

    def _quick(
        self,
        background: list[int],
        added: list[int],
        candidates: list[int],
        holding: Holding,
        value: bool,
    ) -> list[int]:
        """QuickXplain: a minimal part of `candidates` that with `background` forces the
        cell (given that all of them do), splitting the candidates in halves."""
        if added and self.forces(background, holding, value):
            return []
        if len(candidates) == 1:
            return candidates
        half = len(candidates) // 2
        first, second = candidates[:half], candidates[half:]
        kept_second = self._quick(background + first, first, second, holding, value)
        kept_first = self._quick(background + kept_second, kept_second, first, holding, value)
        return kept_first + kept_second


def any_deal(grid: Grid, values: list[int], residue: Residue) -> bool:
    """Whether a deal fits the residue, past a short search that did not tell: the
    count's forward pass within a bound on its states, which proves there is none in a few
    steps where the search would try every branch; past that the whole search, and the
    whole count last."""
    try:
        return deal_exists(residue, COUNT_STATES)
    except TooMany:
        pass
    try:
        return DealSearch(residue, SEARCH_BUDGET).deal() is not None
    except Exhausted:
        return count(grid, values).total > 0


def by_relevance(explainer: Explainer, holding: Holding) -> list[int]:
    """The facts' indices: those naming the card first, then the owner, then the rest."""

    def rank(index: int) -> int:
        cards, owners = explainer.named[index]
        if holding.card in cards:
            return 0
        return 1 if holding.owner in owners else 2

    return sorted(range(len(explainer.case.facts)), key=rank)


def _named(fact: Fact) -> tuple[set[CardId], set[Owner]]:
    """The cards and the owners a fact names."""
    named = {x.holding for clause in fact.clauses for x in clause.literals}
    return {h.card for h in named}, {h.owner for h in named}


def _indices(mask: int) -> list[int]:
    return [i for i in range(mask.bit_length()) if mask >> i & 1]
