"""The notebook solver's forced cells against an independent SAT solver (python-sat) on
full decks: 21 cards, four to six seats, the facts one player gets from a simulated game
(bench/notebook_games.py: random suggestions, the first holder refuting, could not
refute, wrong accusations), plus a few true clauses over two owners.

The deal as CNF: a variable per cell, exactly one owner per card, each seat exactly its
size, the envelope exactly one card per category (cardinality encodings), each fact's
clauses as they are. A cell is forced true iff the CNF with the cell false is
unsatisfiable, forced false iff it is with the cell true; nothing wrong, nothing missed.
"""

from __future__ import annotations

import random

import pytest
from pysat.card import CardEnc  # type: ignore[import-untyped]
from pysat.formula import IDPool  # type: ignore[import-untyped]
from pysat.solvers import Solver  # type: ignore[import-untyped]

from bench.notebook_games import Setup, simulate
from engine.notebook.facts import (
    ENVELOPE,
    Case,
    Clause,
    Fact,
    Holding,
    Literal,
    Owner,
    Source,
    SourceKind,
)
from engine.notebook.solve import solve

SETUPS = (
    Setup("forum 6", (6, 6, 9), (3,) * 6, forum=True, suggestions=50),
    Setup("table 6", (6, 6, 9), (3,) * 6, forum=False, suggestions=30),
    Setup("table 5", (6, 6, 9), (4, 4, 4, 3, 3), forum=False, suggestions=30),
    Setup("table 4", (6, 6, 9), (5, 5, 4, 4), forum=False, suggestions=30),
)
# Big forum games, where counting every deal is slow: their forced cells alone (search).
BIG_SETUPS = (
    Setup("forum 8", (8, 8, 11), (3,) * 8, forum=True, suggestions=80),
    Setup("forum 10", (10, 10, 13), (3,) * 10, forum=True, suggestions=100),
)
GAMES = 5  # per setup; three moments of each game: 60 cases
THIRDS = (1, 2, 3)  # a third of the way through the game, two thirds, the end


class Sat:
    """The case's deals as CNF, asked with assumptions."""

    def __init__(self, case: Case) -> None:
        self.pool = IDPool()
        self.solver = Solver(name="minisat22")
        cards, owners = case.cards, case.owners
        for card in cards:
            self._exactly([self.var(Holding(card, o)) for o in owners], 1)
        for owner, size in case.sizes:
            self._exactly([self.var(Holding(card, owner)) for card in cards], size)
        for category in case.categories:
            self._exactly([self.var(Holding(card, ENVELOPE)) for card in category], 1)
        for fact in case.facts:
            for clause in fact.clauses:
                self.solver.add_clause([self.literal(x) for x in clause.literals])

    def var(self, holding: Holding) -> int:
        found: int = self.pool.id(holding)
        return found

    def literal(self, literal: Literal) -> int:
        found = self.var(literal.holding)
        return found if literal.holds else -found

    def _exactly(self, variables: list[int], bound: int) -> None:
        encoded = CardEnc.equals(lits=variables, bound=bound, vpool=self.pool)
        for clause in encoded.clauses:
            self.solver.add_clause(clause)

    def possible(self, holding: Holding, value: bool) -> bool:
        variable = self.var(holding)
        found: bool = self.solver.solve(assumptions=[variable if value else -variable])
        return found


def with_mixed_clauses(case: Case, owner: dict[str, Owner], rng: random.Random) -> Case:
    """The case with two true clauses "this card is with X or with Y" (as a card passed
    unseen gives)."""
    seats = [o for o, _ in case.sizes]
    added = []
    for _ in range(2):
        card = rng.choice(case.cards)
        other = rng.choice([s for s in seats if s != owner[card]])
        pair = (owner[card], other) if rng.random() < 0.5 else (other, owner[card])
        literals = tuple(Literal(Holding(card, o)) for o in pair)
        added.append(Fact(Source(SourceKind.PASSED), (Clause(literals),)))
    return Case(case.categories, case.sizes, (*case.facts, *added))


def sat_cases(setups: tuple[Setup, ...], games: int) -> list[tuple[str, Case]]:
    found = []
    for setup in setups:
        for seed in range(games):
            game = simulate(setup, 500 + seed, observer=seed % len(setup.hands))
            rng = random.Random(seed)
            for third in THIRDS:
                case = game.cases[min(len(game.cases) - 1, len(game.cases) * third // 3)]
                if seed % 2:
                    case = with_mixed_clauses(case, game.owner, rng)
                found.append((f"{setup.name} game {seed} {third}/3", case))
    return found


CASES = sat_cases(SETUPS, GAMES)
BIG_CASES = sat_cases(BIG_SETUPS, 2)


def sat_forced(case: Case) -> dict[Holding, bool]:
    """Every cell SAT proves forced."""
    sat = Sat(case)
    expected: dict[Holding, bool] = {}
    for card in case.cards:
        for owner in case.owners:
            holding = Holding(card, owner)
            can_hold, can_lack = sat.possible(holding, True), sat.possible(holding, False)
            assert can_hold or can_lack
            if can_hold != can_lack:
                expected[holding] = can_hold
    return expected


@pytest.mark.parametrize(("name", "case"), CASES, ids=[name for name, _ in CASES])
def test_forced_cells_are_what_sat_proves(name: str, case: Case) -> None:
    expected = sat_forced(case)
    forced = solve(case, odds=False)
    counted = solve(case, odds=True)
    assert forced.consistent and counted.consistent
    assert dict(forced.forced) == expected
    assert dict(counted.forced) == expected
    for holding, p in counted.odds.items():
        assert (p == 0 or p == 1) == (holding in expected)


@pytest.mark.parametrize(("name", "case"), BIG_CASES, ids=[name for name, _ in BIG_CASES])
def test_forced_cells_of_big_forum_games_are_what_sat_proves(name: str, case: Case) -> None:
    solution = solve(case, odds=False)
    assert solution.consistent
    assert dict(solution.forced) == sat_forced(case)


def test_the_cases_say_something() -> None:
    """The games gave the solver work: open cells, and forced ones beyond the hand."""
    open_cells = forced_cells = 0
    for _, case in CASES:
        solution = solve(case, odds=False)
        forced_cells += len(solution.forced)
        open_cells += len(case.cards) * len(case.owners) - len(solution.forced)
    assert open_cells > 1000
    assert forced_cells > 2000
