"""What each format's own events show a seat's notebook, by the format's key: the Liars
Edition's (engine/liars/notebook.py) and the 2023 edition's (engine/y2023/notebook.py).
The forum's and the table core's events are the core's (engine/notebook/observe.py
`CORE`); a format with no events of its own that a notebook sees has no entry.

This is where the notebook meets the editions: the editions' rules know nothing of the
notebook's observers, and a new format whose events show something adds them here."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from engine.events import Event
from engine.liars.edition import LIARS_EDITION
from engine.liars.notebook import LIARS_OBSERVERS
from engine.notebook.observed import Observer
from engine.y2023.edition import Y2023_EDITION
from engine.y2023.notebook import Y2023_OBSERVERS

Observers = Mapping[type[Event], Observer]
NONE: Observers = MappingProxyType({})

OBSERVERS: Mapping[str, Observers] = MappingProxyType(
    {
        LIARS_EDITION.key: LIARS_OBSERVERS,
        Y2023_EDITION.key: Y2023_OBSERVERS,
    }
)


def observers_of(key: str) -> Observers:
    """The observers of the format `key`'s own events (none: an empty table)."""
    return OBSERVERS.get(key, NONE)
