"""The reasons against those recorded on a Liars Edition game (tests/engine/notebook/
recorded_reasons.py): after every update, every forced cell's reason is the same facts,
through the game's passes (every fact carried over) and its plain updates."""

from __future__ import annotations

from engine.notebook.facts import SourceKind
from tests.engine.notebook.recorded_reasons import digest, liars_cases, reasons_of, recorded


def test_every_reason_equals_the_recorded_one() -> None:
    expected = recorded()
    checked, passes = 0, set()
    for seat, update, case in liars_cases():
        assert digest(reasons_of(case)) == expected[seat, update], (seat, update)
        checked += 1
        passes |= {f.source.when for f in case.facts if f.source.kind is SourceKind.PASSED}
    assert checked == len(expected)
    assert len(passes) >= 2  # the facts were carried over passes
