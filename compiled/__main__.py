"""`python -m compiled`: compile the deal count now, into numba's cache, so that the first
notebook of a big table does not wait for it (a few seconds, once per installation)."""

from __future__ import annotations

import time

from compiled.deal_count import deal_count
from engine.notebook.residue import Residue, Slot


def main() -> None:
    began = time.perf_counter()
    # two cards, two seats of one card each, a clause: every pass of the count runs
    residue = Residue([0, 1], [[0, 1], [0, 1]], [Slot((0,), (1,)), Slot((1,), (1,))], [[(0, 0)]])
    total, _ = deal_count(residue)
    assert total == 1
    print(f"the deal count is compiled ({time.perf_counter() - began:.1f} s)")


if __name__ == "__main__":
    main()
