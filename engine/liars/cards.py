"""The Liars Edition's evidence cards, its ring of rooms, and its investigation cards.

Evidence: the six classic suspects; the weapons of the modern boxes with the Statue in
place of the wrench (the rulebook names the Dagger, the Lead Pipe and the Statue); the nine
classic rooms. The board: the nine rooms in a ring (each room one space), secret passages
across (Kitchen–Study, Conservatory–Lounge, as the rulebook's Study → Kitchen), and the
Interrogation Room in the middle, where exposed cards lie face up (no token goes there).

Investigation cards (the rulebook gives no counts; settings, default 4 + 4 + 4 truths and
6 lies): a truth card names one action; a lie card carries all three, the reader picks.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from types import MappingProxyType

from engine.cards import Pack

LIARS_PACK = Pack(
    id="liars",
    suspects=("scarlett", "mustard", "white", "green", "peacock", "plum"),
    weapons=("candlestick", "dagger", "lead_pipe", "revolver", "rope", "statue"),
    places=(
        "kitchen",
        "ballroom",
        "conservatory",
        "dining_room",
        "billiard_room",
        "library",
        "lounge",
        "hall",
        "study",
    ),
)

BOARD_KEY = "liars"

RING: tuple[str, ...] = (  # clockwise, from the top-left corner
    "kitchen",
    "ballroom",
    "conservatory",
    "billiard_room",
    "library",
    "study",
    "hall",
    "lounge",
    "dining_room",
)
PASSAGES: Mapping[str, str] = MappingProxyType(
    {
        "kitchen": "study",
        "study": "kitchen",
        "conservatory": "lounge",
        "lounge": "conservatory",
    }
)
# Each token in the room next to its classic start.
START_ROOMS: Mapping[str, str] = MappingProxyType(
    {
        "scarlett": "lounge",
        "mustard": "dining_room",
        "white": "kitchen",
        "green": "conservatory",
        "peacock": "billiard_room",
        "plum": "study",  # the rulebook's Professor Plum in the Study
    }
)


class Action(StrEnum):
    """What an investigation card says."""

    MOVE = "move"  # I may move to any room and make another suggestion
    PASS = "pass"  # every player passes one card of their choice to the left
    PEEK = "peek"  # I may look at two random evidence cards of a player of my choice


LIE = "lie"  # a lie card: the reader reads any of the three actions
InvestigationCard = str  # an Action's value (a truth card) or LIE


def investigation_deck(move: int, pass_: int, peek: int, lies: int) -> tuple[str, ...]:
    """The deck before shuffling, from the settings' counts."""
    return (
        (Action.MOVE.value,) * move
        + (Action.PASS.value,) * pass_
        + (Action.PEEK.value,) * peek
        + (LIE,) * lies
    )


def ring_distance(a: str, b: str) -> int:
    """Rooms between two rooms around the ring, the shorter way."""
    i, j = RING.index(a), RING.index(b)
    d = abs(i - j)
    return min(d, len(RING) - d)


def rooms_within(origin: str, steps: int) -> tuple[str, ...]:
    """The rooms 1..steps spaces away, either way round, in ring order."""
    return tuple(r for r in RING if r != origin and ring_distance(origin, r) <= steps)
