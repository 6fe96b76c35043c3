"""The notebook solver against brute force on small decks (tests/engine/notebook/
small_cases.py): every deal listed, those fitting the facts kept, each cell's share of
them. Exact: the same forced cells, the same odds as fractions, inconsistency seen; and
each forced cell's reason forces it alone and is minimal."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.notebook import explain as explain_module
from engine.notebook import solve as solve_module
from engine.notebook.explain import explain, explain_all
from engine.notebook.facts import (
    Case,
    Clause,
    Fact,
    Holding,
    Source,
    SourceKind,
    holds,
    lacks,
    one_of,
)
from engine.notebook.solve import solve
from tests.engine.notebook.small_cases import Truth, random_case

CASES = 640
CHUNKS = 8
REASON_CASES = 160


def cases(chunk: int, per_chunk: int) -> list[Case]:
    rng = random.Random(1000 + chunk)
    return [random_case(rng) for _ in range(per_chunk)]


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_odds_and_forced_are_exact(chunk: int) -> None:
    inconsistent = 0
    for case in cases(chunk, CASES // CHUNKS):
        truth = Truth(case)
        solution = solve(case, odds=True)
        forced_only = solve(case, odds=False)
        if not truth.fitting:
            assert not solution.consistent, case
            assert not forced_only.consistent, case
            inconsistent += 1
            continue
        assert solution.consistent and forced_only.consistent, case
        assert solution.deals == len(truth.fitting), case
        assert dict(solution.odds) == truth.odds(), case
        assert dict(solution.forced) == truth.forced(), case
        assert dict(forced_only.forced) == truth.forced(), case
        for card in case.cards:
            assert sum(solution.odds[Holding(card, o)] for o in case.owners) == 1
    assert 0 < inconsistent < CASES // CHUNKS  # both kinds were seen


def test_the_count_stands_in_for_the_search_past_its_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(solve_module, "SEARCH_BUDGET", 0)
    for case in cases(99, 80):
        truth = Truth(case)
        solution = solve(case, odds=False)
        assert solution.consistent == bool(truth.fitting), case
        if truth.fitting:
            assert dict(solution.forced) == truth.forced(), case


def _forces(case: Case, facts: tuple[int, ...], holding: Holding, value: bool) -> bool:
    fitting = Truth(case, facts).fitting
    return all((deal[holding.card] == holding.owner) == value for deal in fitting)


def _check_reason(case: Case, holding: Holding, value: bool, reason: tuple[int, ...]) -> None:
    """The reason forces the cell alone, none of it can go, and it is one fact when one
    fact would do."""
    assert list(reason) == sorted(set(reason))
    assert _forces(case, reason, holding, value), (case, holding, reason)
    for dropped in reason:
        rest = tuple(i for i in reason if i != dropped)
        assert not _forces(case, rest, holding, value), (case, holding, reason)
    if len(reason) > 1:
        singles = [i for i in range(len(case.facts)) if _forces(case, (i,), holding, value)]
        assert not singles, (case, holding, reason, singles)


@pytest.mark.parametrize("chunk", range(4))
def test_every_reason_forces_its_cell_alone_and_is_minimal(chunk: int) -> None:
    sizes: Counter[int] = Counter()
    for case in cases(200 + chunk, REASON_CASES // 4):
        solution = solve(case, odds=False)
        if not solution.consistent:
            continue
        found = explain_all(case, solution)
        assert set(found) == set(solution.forced)
        for n, (holding, value) in enumerate(sorted(solution.forced.items())):
            _check_reason(case, holding, value, found[holding])
            sizes[len(found[holding])] += 1
            if n % 7 == 0:  # one by one too
                _check_reason(case, holding, value, explain(case, holding, value))
    assert sizes[0] and sizes[1] > 50 and sizes[2] + sizes[3] > 5  # every kind was seen


def test_reasons_past_the_search_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(solve_module, "SEARCH_BUDGET", 0)
    monkeypatch.setattr(explain_module, "SEARCH_BUDGET", 0)
    for case in cases(300, 30):
        solution = solve(case, odds=False)
        if solution.consistent:
            for holding, reason in explain_all(case, solution).items():
                _check_reason(case, holding, solution.forced[holding], reason)


def _fact(*clauses: Clause) -> Fact:
    return Fact(Source(SourceKind.NOT_REFUTED), clauses)


def test_explain_by_hand() -> None:
    cards = (("s0", "s1", "s2"), ("w0", "w1"), ("p0", "p1", "p2"))
    facts = (
        _fact(holds("s0", 0)),
        _fact(one_of(1, ("s1", "w1", "p1"))),
        _fact(lacks("s1", 1), lacks("w0", 1), lacks("p1", 1)),
    )
    case = Case(cards, ((0, 3), (1, 2), (2, 0)), facts)
    solution = solve(case, odds=False)
    assert explain(case, Holding("w0", 1), False) == (2,)
    assert explain(case, Holding("s0", 1), False) == (0,)  # s0 is with seat 0
    assert solution.forced[Holding("w1", 1)] is True  # one of three, not the other two
    assert explain(case, Holding("w1", 1), True) == (1, 2)
    assert explain(case, Holding("s2", 2), False) == ()  # seat 2 holds nothing
    assert explain_all(case, solution)[Holding("w1", 1)] == (1, 2)


def test_a_case_no_deal_fits() -> None:
    cards = (("s0", "s1"), ("w0",), ("p0",))
    case = Case(cards, ((0, 1),), (_fact(lacks("s0", 0)), _fact(lacks("s1", 0))))
    for odds in (True, False):
        solution = solve(case, odds=odds)
        assert not solution.consistent
        assert not solution.odds and not solution.forced
