"""Why a cell is forced: a small set of the player's observations that forces it on its
own (with the deal's shape: hand sizes, one envelope card per category).

Found by deletion: start from the observations about the cell's card (all of them if those
do not force it), then drop each in turn, newest first, while the rest still force the
cell. What is left forces the cell, and no single one of it can go."""

from __future__ import annotations

from dataclasses import replace

from engine.notebook.facts import Case, Clause, Holding
from engine.notebook.solve import solve


def reasons_for(case: Case, holding: Holding, value: bool) -> tuple[int, ...]:
    """Indices into `case.facts` of observations that force `holding` to `value`."""
    about = [i for i, f in enumerate(case.facts) if _names(f.clauses, holding.card)]
    kept = about if _forces(case, about, holding, value) else list(range(len(case.facts)))
    for index in reversed(list(kept)):
        trial = [i for i in kept if i != index]
        if _forces(case, trial, holding, value):
            kept = trial
    return tuple(kept)


def _names(clauses: tuple[Clause, ...], card: str) -> bool:
    return any(lit.holding.card == card for c in clauses for lit in c.literals)


def _forces(case: Case, kept: list[int], holding: Holding, value: bool) -> bool:
    trial = replace(case, facts=tuple(case.facts[i] for i in kept))
    solution = solve(trial, odds=False)
    return solution.consistent and solution.forced.get(holding) is value
