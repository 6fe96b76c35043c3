"""The 2023 edition's cards (the victim is Mr Black) and its clue-card deck, as data.

Suspects, weapons and rooms as the rulebook names them: Miss Scarlett, Colonel Mustard,
Chef White, Mayor Green, Solicitor Peacock, Professor Plum; the candlestick, dagger, lead
pipe, revolver, rope and wrench; the nine rooms. Cards the classic pack shares keep its ids
(and names in locales/); the three new characters have their own.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType

from engine.cards import CardId, Pack

Y2023 = Pack(
    id="clue2023",
    suspects=("scarlett", "mustard", "chef_white", "mayor_green", "solicitor_peacock", "plum"),
    weapons=("candlestick", "dagger", "lead_pipe", "revolver", "rope", "wrench"),
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

Y2023_PLAYERS = (2, 6)  # the 2023 edition has a two-player game
TWO_PLAYERS = 2  # the two-player game: four cards in rooms, the rest dealt (see setup.py)
PLACED_IN_ROOMS = 4  # two players: "four of the character, weapon and room cards were
# placed on the board"; with three or more all cards are dealt
TWO_PLAYER_HAND = 7  # two players: (21 - 3 in the envelope - 4 in rooms) / 2, no card face up


class ClueKind(StrEnum):
    """What a clue card asks."""

    REVEAL = "reveal"  # the player holding `card` shows it to everyone
    LEFT_SHOWS = "left_shows"  # the reader's left neighbour shows them one random card


@dataclass(frozen=True)
class ClueCard:
    """One card of the clue deck; `id` is what events and the catalogs name."""

    id: str
    kind: ClueKind
    card: CardId | None = None


# The deck we implement (the rulebook's text names only the Lounge card as an example):
# twelve "the holder of X reveals it to everyone" (six rooms, three weapons, three
# characters) and four "the player on your left shows you a card at random".
_REVEALED: tuple[CardId, ...] = (
    "kitchen",
    "ballroom",
    "conservatory",
    "lounge",
    "hall",
    "study",
    "rope",
    "dagger",
    "wrench",
    "mustard",
    "plum",
    "mayor_green",
)
CLUE_DECK: tuple[ClueCard, ...] = (
    *(ClueCard(id=f"reveal_{card}", kind=ClueKind.REVEAL, card=card) for card in _REVEALED),
    *(ClueCard(id=f"left_shows_{n}", kind=ClueKind.LEFT_SHOWS) for n in range(1, 5)),
)
CLUES: Mapping[str, ClueCard] = MappingProxyType({clue.id: clue for clue in CLUE_DECK})
GLASS = 1  # the die face with the magnifying glass; it counts as one
