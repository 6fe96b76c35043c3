"""What each format's own events add to a seat's deeds for the achievements, by the format's
key: the Liars Edition's owed moves (a reading, a pass, a card put face up: made by the
player or, their time out, by the GM) and its right calls of "Liar!". This is where the
achievements meet the editions; a new format whose events count adds its reader here."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

from engine.events import Event
from engine.ids import Seat
from engine.liars.edition import LIARS_EDITION
from engine.liars.events import CardExposed, InvestigationRead, LiarCalled, PassChosen

ANSWERED, BY_GM, LIAR_CAUGHT = "answered", "by_gm", "liar_caught"
LIARS = LIARS_EDITION.key

Deed = tuple[Seat, str]  # the seat, and what it did (one of the kinds above)
DeedOf = Callable[[Event], Deed | None]


def _liars(e: Event) -> Deed | None:
    match e:
        case InvestigationRead() | PassChosen() | CardExposed():
            return e.seat, BY_GM if e.by_gm else ANSWERED
        case LiarCalled() if e.lie:
            return e.seat, LIAR_CAUGHT
    return None


def _none(e: Event) -> Deed | None:
    return None


DEEDS: Mapping[str, DeedOf] = MappingProxyType({LIARS: _liars})


def deeds_of(key: str) -> DeedOf:
    """The reader of the format `key`'s own events (one that reads none: no own events)."""
    return DEEDS.get(key, _none)
