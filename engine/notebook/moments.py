"""When, in a finished game, each player's notebook could have named the envelope, and when
they accused: the day (forum) or turn (table) for a person's record (/me), where it is
averaged over their games. Read from the game's whole log."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine import events as ev
from engine.ids import Seat, UserId
from engine.notebook.story import dated, named_from


@dataclass(frozen=True)
class Moments:
    """A seat's last holder: `forced`, the first day or turn at whose end the seat's own
    facts forced the whole envelope; `accused`, the day or turn of the seat's first
    accusation (None: never)."""

    user: UserId
    forced: int | None
    accused: int | None


def moments_of(events: Sequence[ev.Event]) -> tuple[Moments, ...]:
    """Each seat's moments, by seat; () before the deal. A seat's notebook and its
    accusation are the seat's, so a newcomer who took it over gets them and whoever held
    it before gets none (as the ratings count them: they left)."""
    holders = seat_holders(events)
    accused = accusation_moments(events)
    forced = dict(named_from(events)) if holders else {}
    return tuple(
        Moments(user, forced.get(seat), accused.get(seat)) for seat, user in enumerate(holders)
    )


def seat_holders(events: Sequence[ev.Event]) -> tuple[UserId, ...]:
    """Each seat's last holder, by seat; () before the deal."""
    start = next((e for e in events if isinstance(e, ev.GameStarted)), None)
    if start is None:
        return ()
    holders = [deal.user for deal in start.seats]
    for event in events:
        if isinstance(event, ev.SeatReplaced):
            holders[event.seat] = event.new_user
    return tuple(holders)


def accusation_moments(events: Sequence[ev.Event]) -> dict[Seat, int]:
    """Each seat's first accusation: the day it was made (forum) or its turn (table)."""
    found: dict[Seat, int] = {}
    for day, turn, e in dated(events):
        match e:
            case ev.AccusationMade():
                found.setdefault(e.seat, day)
            case ev.AccusedAtTable():
                found.setdefault(e.seat, e.turn or turn)
    return found
