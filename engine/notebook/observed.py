"""What one event shows one seat, as an edition reports it to the notebook: the cards that
changed owner (as far as the seat can tell) and the new facts.

A format's observers (engine/notebook/observers.py, by the format's key) map its own event
types to an `Observer`; engine/notebook/observe.py calls them for every seat's notebook and
carries the older facts over the moves (engine/notebook/carry.py) before adding the new
ones.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.cards import CardId
from engine.ids import Seat
from engine.notebook.facts import Fact, Owner
from engine.state import Game


@dataclass(frozen=True)
class Moved:
    """A card went from `giver` to `taker`; `card` is None when the seat cannot tell which
    (another player's pass)."""

    giver: Owner
    taker: Owner
    card: CardId | None = None


@dataclass(frozen=True)
class Observed:
    """One event as one seat saw it: the moves (all at once), then the new facts."""

    moved: tuple[Moved, ...] = ()
    facts: tuple[Fact, ...] = ()


NOTHING = Observed()

# (event, the notebook's seat, the state before the event, the state after it)
Observer = Callable[[Any, Seat, Game, Game], Observed]
