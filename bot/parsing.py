"""Typed suggestions, forum style: "/suggest @player Scarlett; rope; kitch": the cards named
in the chat's language or in English."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from bot.payload import Card, Cards
from bot.payload import Category as CategoryArg
from engine.cards import CATEGORY_ORDER, Category, Pack, name_key
from locales import DEFAULT_LANGUAGE, t


class ParseError(ValueError):
    """Why a typed suggestion could not be read; `key` is the catalog message."""

    def __init__(self, key: str, **values: object) -> None:
        super().__init__(key)
        self.key = key
        self.values = values


@dataclass(frozen=True)
class TypedSuggestion:
    target: str  # "@username" as typed, or "" when a text mention names the target
    cards: tuple[str, str, str]


def normalize(text: str) -> str:
    """As engine.cards.name_key, and punctuation does not matter either ("dr who")."""
    return " ".join(re.sub(r"[^\w\s]", " ", name_key(text)).split())


def card_names(pack: Pack, card: str, language: str) -> list[str]:
    """Every name a card goes by in a chat of `language`, as written: its id, its name in
    that language and in English."""
    label = pack.label(card)
    if label is not None:  # a chat's own pack: its names only
        return [label]
    names = {card.replace("_", " ")}
    names.update(t(each, f"card.{card}") for each in {language, DEFAULT_LANGUAGE})
    return sorted(names)


def match_card(
    pack: Pack, in_play: tuple[str, ...], category: Category, typed: str, language: str
) -> str:
    """The one card of a category that a typed word names.

    Tried in turn: the name as written (so "Rope!" and "Rope" are told apart), the name
    without punctuation ("dr who" for "Dr. Who"), then a unique prefix of it or of a word.
    Card names and the typed text go through the same normalisation at each step.
    """
    key = name_key(typed)
    if not key:
        raise ParseError("parse.missing_card", category=CategoryArg(category.value))
    names = _known_names(pack, category, language)
    wanted = normalize(typed)
    found = (
        [card for card, keys, _ in names if key in keys]
        or [card for card, _, plain in names if wanted and wanted in plain]
        or [card for card, _, plain in names if wanted and _prefix_of(wanted, plain)]
    )
    if not found:
        raise ParseError(
            "parse.unknown_card", typed=typed.strip(), category=CategoryArg(category.value)
        )
    playing = [c for c in found if c in in_play]
    if not playing:
        raise ParseError("parse.card_not_in_play", card=Card(found[0]))
    if len(playing) > 1:
        raise ParseError("parse.ambiguous_card", typed=typed.strip(), options=Cards(tuple(playing)))
    return playing[0]


@lru_cache(maxsize=256)
def _known_names(
    pack: Pack, category: Category, language: str
) -> tuple[tuple[str, frozenset[str], tuple[str, ...]], ...]:
    """Each card of the category with its names as name_key and as normalize see them
    (worked out once per pack, not for every suggestion typed)."""
    found = []
    for card in pack.cards_of(category):
        names = card_names(pack, card, language)
        plain = tuple(normalize(name) for name in names)
        found.append((card, frozenset(name_key(name) for name in names), plain))
    return tuple(found)


def _prefix_of(wanted: str, names: Iterable[str]) -> bool:
    """Whether `wanted` begins one of the names, or one of their words."""
    return any(
        name.startswith(wanted) or any(word.startswith(wanted) for word in name.split())
        for name in names
    )


def parse_suggestion(
    text: str, pack: Pack, in_play: tuple[str, ...], language: str
) -> TypedSuggestion:
    """Read "@player suspect; weapon; place" (";" or "," or new lines between the cards),
    the cards named in `language` or in English."""
    body = text.strip()
    target = ""
    mention = re.match(r"@(\w{3,32})(?:[:,](?=\s|$))?\s*", body)  # "@bob: A; B; C"
    if mention:
        target = mention[1]
        body = body[mention.end() :]
    parts = [p for p in re.split(r"[;\n]", body) if p.strip()]
    if len(parts) != 3:
        parts = [p for p in body.split(",") if p.strip()]
    if len(parts) != 3:
        raise ParseError("parse.usage")
    cards = tuple(
        match_card(pack, in_play, category, part, language)
        for category, part in zip(CATEGORY_ORDER, parts, strict=True)
    )
    return TypedSuggestion(target, (cards[0], cards[1], cards[2]))


def match_own_card(pack: Pack, hand: tuple[str, ...], typed: str, language: str) -> str:
    """The one card of a hand that a typed word names (its name as written, without
    punctuation, or a unique prefix of it or of one of its words)."""
    wanted = normalize(typed)
    names = {card: [normalize(n) for n in card_names(pack, card, language)] for card in hand}
    found = [card for card, plain in names.items() if wanted and wanted in plain] or [
        card for card, plain in names.items() if wanted and _prefix_of(wanted, plain)
    ]
    if len(found) != 1:
        raise ParseError("parse.not_own_card", typed=typed.strip())
    return found[0]
