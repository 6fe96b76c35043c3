"""Cards ("keywords") and packs: ids with a category; names live in locales/."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

CardId = str


class Category(StrEnum):
    """The three kinds of keyword."""

    SUSPECT = "suspect"
    WEAPON = "weapon"
    PLACE = "place"


CATEGORY_ORDER: tuple[Category, ...] = (Category.SUSPECT, Category.WEAPON, Category.PLACE)


@dataclass(frozen=True)
class Pack:
    """A set of cards by category; the engine only sees ids."""

    id: str
    suspects: tuple[CardId, ...]
    weapons: tuple[CardId, ...]
    places: tuple[CardId, ...]

    def cards_of(self, category: Category) -> tuple[CardId, ...]:
        """The pack's cards of one category, in pack order."""
        if category == Category.SUSPECT:
            return self.suspects
        if category == Category.WEAPON:
            return self.weapons
        return self.places

    def category_of(self, card: CardId) -> Category | None:
        """The category of a card of this pack, or None if the pack lacks it."""
        for category in CATEGORY_ORDER:
            if card in self.cards_of(category):
                return category
        return None

    @property
    def all_cards(self) -> tuple[CardId, ...]:
        return self.suspects + self.weapons + self.places


def deck_counts(players: int, extra_cards: int) -> dict[Category, int]:
    """The forum formula: N suspects, N weapons, N + 3 places, plus extras in each."""
    return {
        Category.SUSPECT: players + extra_cards,
        Category.WEAPON: players + extra_cards,
        Category.PLACE: players + 3 + extra_cards,
    }


CLASSIC = Pack(
    id="classic",
    suspects=(
        "scarlett",
        "mustard",
        "white",
        "green",
        "peacock",
        "plum",
        "orchid",
        "rose",
        "gray",
        "brunette",
        "peach",
        "azure",
    ),
    weapons=(
        "candlestick",
        "dagger",
        "lead_pipe",
        "revolver",
        "rope",
        "wrench",
        "poison",
        "horseshoe",
        "axe",
        "dumbbell",
        "trophy",
        "baseball_bat",
    ),
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
        "cellar",
        "patio",
        "spa",
        "theatre",
        "observatory",
        "guest_house",
    ),
)

PACKS: dict[str, Pack] = {CLASSIC.id: CLASSIC}
