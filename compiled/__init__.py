"""The notebook's deal count compiled to machine code (numba), for the largest tables: the
engine stays pure Python and holds the reference count (engine/notebook/count.py); a
process that wants the compiled one calls `use_compiled_count` once."""

from __future__ import annotations

import logging

from engine.notebook.count import use_counter

log = logging.getLogger(__name__)


def use_compiled_count() -> bool:
    """Count deals in machine code from now on in this process; False (and the pure count
    kept) where numba cannot be imported."""
    try:
        from compiled.deal_count import deal_count  # imports numba: it may be missing
    except ImportError as error:
        log.warning("counting deals in pure Python: the compiled count is missing (%s)", error)
        return False
    use_counter(deal_count)
    return True
