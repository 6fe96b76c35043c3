"""The compiled deal count (compiled/): the same numbers as the engine's on counts it
takes, the engine's own count where its residues could not hold the numbers, and a
process without numba keeps counting in pure Python."""

from __future__ import annotations

import logging
import random
import sys
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import NoReturn

import pytest

from compiled import deal_count as compiled_module
from compiled import use_compiled_count
from compiled.deal_count import deal_count as compiled_count
from engine.notebook import count as count_module
from engine.notebook.grid import Propagation, grid_of
from engine.notebook.residue import Residue, Slot, residue_of
from tests.engine.notebook.recorded import cases_of, recorded


@pytest.fixture(autouse=True)
def engine_count() -> Iterator[None]:
    """Each test starts and ends with the engine's count (a test of `whodunit demo` run in
    the same process leaves the compiled one installed)."""
    count_module.use_counter(None)
    yield
    count_module.use_counter(None)


def large_residues(how_many: int) -> list[Residue]:
    """Open parts of recorded full-deck moments, the largest first."""
    moments = [moment for moment, _ in recorded()]
    found = []
    for case in cases_of(random.Random(41).sample(moments, 40)):
        grid = grid_of(case)
        propagated = Propagation(grid)
        if propagated.conflict is None and (residue := residue_of(grid, propagated.values)):
            found.append(residue)
    found.sort(key=lambda residue: -len(residue.cards))
    return found[:how_many]


@pytest.mark.parametrize("primes", compiled_module.PRIME_SETS, ids=["three", "four"])
def test_the_compiled_count_gives_the_engines_numbers(primes: compiled_module.Primes) -> None:
    for residue in large_residues(6):  # one after another on the same work
        assert compiled_module.counted(residue, primes) == count_module.deal_count(residue)


def test_a_count_of_no_deal_leaves_its_work_fit_for_the_next() -> None:
    both_to_one_seat = Residue([0, 1], [[0], [0]], [Slot((0,), (1,)), Slot((1,), (1,))], [[(0, 0)]])
    assert compiled_count(both_to_one_seat) == (0, [{}, {}])
    residue = large_residues(1)[0]  # on the work the empty count gave back
    assert compiled_count(residue) == count_module.deal_count(residue)


def test_counts_in_threads_at_once_keep_to_their_own_work() -> None:
    residues = large_residues(4)
    expected = [count_module.deal_count(residue) for residue in residues]
    with ThreadPoolExecutor(4) as pool:
        found = list(pool.map(compiled_count, residues * 3))
    assert found == expected * 3


def never(*_: object) -> NoReturn:
    raise AssertionError("the compiled pass ran on a count it cannot take")


def test_a_count_too_large_for_the_residues_is_left_to_the_engine(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    residue = large_residues(1)[0]
    expected = count_module.deal_count(residue)
    small = compiled_module.Primes((1009, 1013), never, never)
    monkeypatch.setattr(compiled_module, "PRIME_SETS", (small,))
    assert expected[0] > small.modulus
    assert compiled_count(residue) == expected


def test_a_count_with_too_many_places_is_left_to_the_engine(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    residue = large_residues(1)[0]
    expected = count_module.deal_count(residue)
    passes = [compiled_module.Primes(p.primes, never, never) for p in compiled_module.PRIME_SETS]
    monkeypatch.setattr(compiled_module, "PRIME_SETS", tuple(passes))
    monkeypatch.setattr(compiled_module, "MOST_PLACES", 1)
    assert compiled_count(residue) == expected


def counted_by(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """How many counts each of the two made from now on."""
    calls = {"compiled": 0, "python": 0}
    pure = count_module.deal_count

    def compiled(residue: Residue) -> tuple[int, list[dict[int, int]]]:
        calls["compiled"] += 1
        return compiled_count(residue)

    def python(residue: Residue) -> tuple[int, list[dict[int, int]]]:
        calls["python"] += 1
        return pure(residue)

    monkeypatch.setattr(compiled_module, "deal_count", compiled)
    monkeypatch.setattr(count_module, "deal_count", python)
    return calls


def count_a_moment() -> None:
    grid = grid_of(cases_of([recorded()[0][0]])[0])
    count_module.count(grid, Propagation(grid).values)


def test_the_process_counts_with_what_it_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = counted_by(monkeypatch)
    count_a_moment()
    assert calls == {"compiled": 0, "python": 1}
    assert use_compiled_count()
    count_a_moment()
    assert calls == {"compiled": 1, "python": 1}
    count_module.use_counter(None)
    count_a_moment()
    assert calls == {"compiled": 1, "python": 2}


def no_numba(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setitem(sys.modules, "compiled.deal_count", None)
    return "counting deals in pure Python"


def no_cache(monkeypatch: pytest.MonkeyPatch) -> str:
    """numba raises at its first call where it finds no writable place for its cache."""

    def raising() -> None:
        raise RuntimeError("cannot cache function 'forward': no locator available")

    monkeypatch.setattr(compiled_module, "compile_now", raising)
    return "no locator available"


@pytest.mark.parametrize("failure", [no_numba, no_cache])
def test_where_the_compiled_count_fails_the_pure_one_stays_and_says_so(
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    failure: Callable[[pytest.MonkeyPatch], str],
) -> None:
    calls = counted_by(monkeypatch)
    said = failure(monkeypatch)
    with caplog.at_level(logging.WARNING, logger="compiled"):
        assert not use_compiled_count()
    assert said in caplog.text
    count_a_moment()
    assert calls == {"compiled": 0, "python": 1}


def test_the_shelf_keeps_two_works_and_no_outsized_one(monkeypatch: pytest.MonkeyPatch) -> None:
    shelf = compiled_module.WorkShelf()
    works = [shelf.take() for _ in range(3)]
    for work in works:
        shelf.give_back(work)
    taken = [shelf.take() for _ in range(3)]
    assert taken[0] is works[1] and taken[1] is works[0]  # the last kept, first taken
    assert all(taken[2] is not work for work in works)  # the third was let go
    monkeypatch.setattr(compiled_module, "KEPT_BYTES", 1000)
    shelf.give_back(works[0])  # 9 arrays of 1,024 items: over the 1,000 bytes
    assert shelf.take() is not works[0]
