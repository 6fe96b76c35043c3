"""Who reads a message: language, time zone, the people named, a custom pack's card names;
and how a card, a person, a moment or a span reads for them."""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from engine.computer import detective_level, detective_number
from locales import formats, has, t


@dataclass(frozen=True)
class Person:
    name: str
    username: str | None = None


@dataclass
class Reader:
    """Who reads the message: language, time zone, and the names of the people named."""

    language: str
    timezone: str = "UTC"
    people: dict[int, Person] = field(default_factory=dict)
    labels: dict[str, str] = field(default_factory=dict)  # a custom pack's card names

    def mention(self, user: int) -> str:
        """A name that links to the person (escaped); @username when there is one; a
        computer detective's name says it is one, and its level."""
        if detective_level(user) is not None:
            return html.escape(self.name(user))
        person = self.people.get(user)
        if person is None:
            unknown = html.escape(t(self.language, "person.unknown"))
            return f'<a href="tg://user?id={user}">{unknown}</a>'
        if person.username:
            return f"@{html.escape(person.username)}"
        return f'<a href="tg://user?id={user}">{html.escape(person.name)}</a>'

    def name(self, user: int) -> str:
        """A person's name, or a computer detective's, as plain text (not escaped)."""
        level = detective_level(user)
        if level is not None:
            kind = t(self.language, f"detective.level.{level}")
            return t(self.language, "detective.name", level=kind, number=detective_number(user))
        person = self.people.get(user)
        return person.name if person is not None else t(self.language, "person.unknown")

    def card_name(self, card: str) -> str:
        """A card's name: the custom pack's, or the catalog's (not escaped)."""
        return self.labels.get(card) or t(self.language, f"card.{card}")

    def card(self, card: str) -> str:
        return html.escape(self.card_name(card))

    def card_form(self, card: str, form: str) -> str | None:
        """A built-in card's grammatical form from the catalog (escaped): `ins` (instrumental),
        `prep` (prepositional) with its preposition `in`. None for a custom pack's card."""
        key = f"card.{card}.{form}"
        if card in self.labels or not has(self.language, key):
            return None
        return html.escape(t(self.language, key))

    def cards(self, cards: list[str]) -> str:
        return ", ".join(self.card(c) for c in cards)

    def moment(self, iso: str) -> str:
        """A deadline in the reader's time zone, the zone named: "Nov 29, 12:00 (Berlin, UTC+1)"."""
        return formats.moment(self.language, datetime.fromisoformat(iso), self.timezone)

    def duration(self, seconds: float) -> str:
        return duration_text(self.language, timedelta(seconds=seconds))


def duration_text(language: str, span: timedelta) -> str:
    """ "1 day 2 hours", "30 minutes", each unit in the language's plural form."""
    return formats.duration(language, span)
