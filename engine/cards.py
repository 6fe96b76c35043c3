"""Cards ("keywords") and packs: ids with a category; names live in locales/."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType

from engine.errors import InvalidPack, PackReason

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
    labels: tuple[tuple[CardId, str], ...] = ()  # names of a custom pack's cards

    def label(self, card: CardId) -> str | None:
        """A custom pack's own name for a card (the classic pack's names are in locales/)."""
        for known, name in self.labels:
            if known == card:
                return name
        return None

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

PACKS: Mapping[str, Pack] = MappingProxyType({CLASSIC.id: CLASSIC})
# Typographic variants keyboards produce: ’ and ' are the same apostrophe when typed.
_TYPOGRAPHIC = MappingProxyType(
    str.maketrans(
        dict.fromkeys("’‘ʼ`´", "'") | dict.fromkeys("“”«»„", '"') | dict.fromkeys("–—", "-")
    )
)


def name_key(name: str) -> str:
    """A card name as people type it: case, accents, "ё", typographic quotes and dashes,
    and spacing do not matter; punctuation does ("Rope!" is not "Rope")."""
    text = unicodedata.normalize("NFKD", name.casefold().replace("ё", "е"))
    text = "".join(c for c in text if not unicodedata.combining(c)).translate(_TYPOGRAPHIC)
    return " ".join(text.split())


CUSTOM = "custom"  # the pack setting of a game played with the chat's own pack
MAX_CARDS = 40
MAX_NAME = 40


def custom_pack(suspects: list[str], weapons: list[str], places: list[str]) -> Pack:
    """A chat's own pack from card names: ids are short (for buttons), names are labels."""
    labels: list[tuple[CardId, str]] = []
    seen: set[str] = set()
    ids: dict[Category, tuple[CardId, ...]] = {}
    for category, names, minimum in (
        (Category.SUSPECT, suspects, 3),
        (Category.WEAPON, weapons, 3),
        (Category.PLACE, places, 6),
    ):
        cleaned = [" ".join(name.split()) for name in names if name.strip()]
        if not minimum <= len(cleaned) <= MAX_CARDS:
            raise InvalidPack(
                reason=PackReason.COUNT,
                category=category.value,
                minimum=minimum,
                maximum=MAX_CARDS,
            )
        for name in cleaned:
            if len(name) > MAX_NAME:
                raise InvalidPack(reason=PackReason.LONG, name=name[:MAX_NAME], maximum=MAX_NAME)
            key = name_key(name)
            if not key:
                raise InvalidPack(reason=PackReason.UNTYPABLE, name=name)
            if key in seen:  # the same when typed: no one could name one and not the other
                raise InvalidPack(reason=PackReason.TWICE, name=name)
            seen.add(key)
        prefix = category.value[0]
        ids[category] = tuple(f"{prefix}{i}" for i in range(1, len(cleaned) + 1))
        labels.extend(zip(ids[category], cleaned, strict=True))
    return Pack(
        id=CUSTOM,
        suspects=ids[Category.SUSPECT],
        weapons=ids[Category.WEAPON],
        places=ids[Category.PLACE],
        labels=tuple(labels),
    )
