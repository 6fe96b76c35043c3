"""Typed suggestions, forum style: "/suggest @player Scarlett; rope; kitch" in any language."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from engine.cards import CATEGORY_ORDER, Category, Pack
from locales import LANGUAGES, t


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
    """Case, accents, "ё", punctuation and spacing do not matter."""
    text = unicodedata.normalize("NFKD", text.casefold().replace("ё", "е"))
    text = "".join(c for c in text if not unicodedata.combining(c))
    text = re.sub(r"[^\w\s]", " ", text)
    return " ".join(text.split())


def card_names(pack: Pack, card: str) -> list[str]:
    """Every name a card goes by: its id and its name in each catalog."""
    label = pack.label(card)
    if label is not None:  # a chat's own pack: its names only
        return [normalize(label)]
    names = {normalize(card.replace("_", " "))}
    names.update(normalize(t(language, f"card.{card}")) for language in LANGUAGES)
    return sorted(names)


def match_card(pack: Pack, in_play: tuple[str, ...], category: Category, typed: str) -> str:
    """The one card of a category that a typed word names (exact, else a unique prefix)."""
    wanted = normalize(typed)
    if not wanted:
        raise ParseError("parse.missing_card", category_category=category.value)
    candidates = pack.cards_of(category)
    exact = [c for c in candidates if wanted in card_names(pack, c)]
    found = exact or [
        c
        for c in candidates
        if any(
            name.startswith(wanted) or any(word.startswith(wanted) for word in name.split())
            for name in card_names(pack, c)
        )
    ]
    if not found:
        raise ParseError(
            "parse.unknown_card", typed=typed.strip(), category_category=category.value
        )
    playing = [c for c in found if c in in_play]
    if not playing:
        raise ParseError("parse.card_not_in_play", card_card=found[0])
    if len(playing) > 1:
        raise ParseError("parse.ambiguous_card", typed=typed.strip(), options_cards=playing)
    return playing[0]


def parse_suggestion(text: str, pack: Pack, in_play: tuple[str, ...]) -> TypedSuggestion:
    """Read "@player suspect; weapon; place" (";" or "," or new lines between the cards)."""
    body = text.strip()
    target = ""
    mention = re.match(r"@(\w{3,32})\s*[:,]?\s*", body)
    if mention:
        target = mention[1]
        body = body[mention.end() :]
    parts = [p for p in re.split(r"[;\n]", body) if p.strip()]
    if len(parts) != 3:
        parts = [p for p in body.split(",") if p.strip()]
    if len(parts) != 3:
        raise ParseError("parse.usage")
    cards = tuple(
        match_card(pack, in_play, category, part)
        for category, part in zip(CATEGORY_ORDER, parts, strict=True)
    )
    return TypedSuggestion(target, (cards[0], cards[1], cards[2]))
