"""`python -m compiled`: compile the deal count now, into numba's cache, so that the first
notebook of a big table does not wait for it (some fifteen seconds, once per installation)."""

from __future__ import annotations

import time

from compiled.deal_count import compile_now


def main() -> None:
    began = time.perf_counter()
    compile_now()
    print(f"the deal count is compiled ({time.perf_counter() - began:.1f} s)")


if __name__ == "__main__":
    main()
