"""The notebook's deal count compiled to machine code (numba), for the largest tables: the
engine stays pure Python and holds the reference count (engine/notebook/count.py); a
process that wants the compiled one calls `use_compiled_count` once."""

from __future__ import annotations

import logging

from engine.notebook.count import use_counter

log = logging.getLogger(__name__)


def use_compiled_count() -> bool:
    """Count deals in machine code from now on in this process, compiled (or loaded from
    numba's cache) here and now; False, and the pure count kept, where that fails."""
    try:
        # imports numba: it may be missing, or find no writable place for its cache
        from compiled.deal_count import compile_now, deal_count

        compile_now()
    except Exception as error:  # whatever fails, the pure count gives the same numbers
        log.warning("counting deals in pure Python: the compiled count failed (%r)", error)
        return False
    use_counter(deal_count)
    return True
