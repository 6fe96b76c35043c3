"""The exact odds against the two references of issue 41: brute force on 1,000 small
random cases (tests/engine/notebook/small_cases.py: every deal listed), and the solver's
own answers recorded on 200 moments of full-deck games of three to ten players
(tests/engine/notebook/recorded.py), every cell's fraction the same. Both with the
engine's own count and with the compiled one the bot runs (compiled/)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from compiled.deal_count import deal_count as compiled_count
from engine.notebook.count import use_counter
from engine.notebook.solve import solve
from tests.engine.notebook.recorded import cases_of, digest, recorded
from tests.engine.notebook.small_cases import Truth, random_case

SMALL_CASES = 1000
SMALL_CHUNKS = 8
RECORDED_CHUNKS = 4


@pytest.fixture(params=["python", "compiled"])
def counting(request: pytest.FixtureRequest) -> Iterator[None]:
    """Solve with the engine's count, then with the compiled one."""
    use_counter(compiled_count if request.param == "compiled" else None)
    yield
    use_counter(None)


@pytest.mark.parametrize("chunk", range(SMALL_CHUNKS))
def test_every_cells_odds_equal_brute_force(chunk: int, counting: None) -> None:
    rng = random.Random(41_000 + chunk)
    for _ in range(SMALL_CASES // SMALL_CHUNKS):
        case = random_case(rng)
        truth = Truth(case)
        solution = solve(case, odds=True)
        assert solution.consistent == bool(truth.fitting), case
        if truth.fitting:
            assert solution.deals == len(truth.fitting), case
            assert dict(solution.odds) == truth.odds(), case


@pytest.mark.parametrize("chunk", range(RECORDED_CHUNKS))
def test_every_cells_odds_equal_the_recorded_ones(chunk: int, counting: None) -> None:
    moments = recorded()[chunk::RECORDED_CHUNKS]
    assert len(moments) == 200 // RECORDED_CHUNKS
    cases = cases_of([moment for moment, _ in moments])
    for (moment, fingerprint), case in zip(moments, cases, strict=True):
        assert digest(solve(case, odds=True)) == fingerprint, moment
