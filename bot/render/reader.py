"""Who reads a message: language, time zone, the people named, a custom pack's card names;
and how a card, a person, a moment or a span reads for them."""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from locales import has, t


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
        """A name that links to the person (escaped); @username when there is one."""
        person = self.people.get(user)
        if person is None:
            unknown = html.escape(t(self.language, "person.unknown"))
            return f'<a href="tg://user?id={user}">{unknown}</a>'
        if person.username:
            return f"@{html.escape(person.username)}"
        return f'<a href="tg://user?id={user}">{html.escape(person.name)}</a>'

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
        """A deadline in the chat's time zone, e.g. "29 Nov 12:00 (Europe/Berlin)"."""
        local = datetime.fromisoformat(iso).astimezone(ZoneInfo(self.timezone))
        month = t(self.language, f"month.{local.month}")
        return t(
            self.language,
            "format.moment",
            day=local.day,
            month=month,
            time=local.strftime("%H:%M"),
            zone=self.timezone,
        )

    def duration(self, seconds: float) -> str:
        return duration_text(self.language, timedelta(seconds=seconds))


def duration_text(language: str, span: timedelta) -> str:
    """ "1 day 2 hours", "30 minutes", with plural forms."""
    minutes = int(span.total_seconds() // 60)
    days, rest = divmod(minutes, 24 * 60)
    hours, mins = divmod(rest, 60)
    seconds = int(span.total_seconds()) % 60  # only short timers have them (Liar!'s window)
    parts = [
        t(language, f"unit.{unit}", count=n)
        for unit, n in (("days", days), ("hours", hours), ("minutes", mins), ("seconds", seconds))
        if n
    ]
    return " ".join(parts) or t(language, "unit.minutes", count=0)
