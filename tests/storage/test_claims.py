"""The claim rule ("a chat's head row") is written once, in storage.claims, and every
statement that claims is built from it."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# The heart of the rule: which unfinished rows hold back the rows behind them.
PREDICATE = "({e}.attempts > 0 OR {e}.last_error IS NOT NULL)"
SPELLINGS = ("attempts > 0", "last_error IS NOT NULL", "attempts.__gt__", "last_error.is_not")


def _shipped() -> list[Path]:
    return [p for d in ("storage", "bot", "bench", "simulation") for p in (ROOT / d).rglob("*.py")]


def test_the_head_row_predicate_appears_once_in_the_code() -> None:
    found = [(p, p.read_text().count(PREDICATE)) for p in _shipped()]
    assert [(p.relative_to(ROOT).as_posix(), n) for p, n in found if n] == [
        ("storage/claims.py", 1)
    ]


def test_no_other_module_spells_any_part_of_it() -> None:
    others = [p for p in _shipped() if p.relative_to(ROOT).as_posix() != "storage/claims.py"]
    spelled = [
        (p.relative_to(ROOT).as_posix(), s)
        for p in others
        if "migrations" not in p.parts
        for s in SPELLINGS
        if s in p.read_text()
    ]
    assert spelled == []
