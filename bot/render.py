"""Outbox payloads to Telegram text (HTML) and buttons, in the reader's language."""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.splitting import split_text as split_text  # the sender's import
from engine.cards import Pack
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
    parts = [
        t(language, f"unit.{unit}", count=n)
        for unit, n in (("days", days), ("hours", hours), ("minutes", mins))
        if n
    ]
    return " ".join(parts) or t(language, "unit.minutes", count=0)


def flat_args(reader: Reader, args: dict[str, Any]) -> dict[str, Any]:
    """Format typed arguments by their name: *_user, *_users, *_card, *_cards, *_at, *_td."""
    out: dict[str, Any] = {}
    for name, value in args.items():
        if value is None or (
            isinstance(value, (list, dict)) and not name.endswith(("_users", "_cards"))
        ):
            out[name] = value
            continue
        if name.endswith("_users"):
            out[name[:-6]] = ", ".join(reader.mention(u) for u in value) or "—"
            out["count"] = len(value)
        elif name.endswith("_user"):
            out[name[:-5]] = reader.mention(value)
        elif name.endswith("_cards"):
            out[name[:-6]] = reader.cards(value)
        elif name.endswith("_card"):
            out[name[:-5]] = reader.card(value)
        elif name.endswith("_at"):
            out[name] = reader.moment(value)
        elif name.endswith("_category"):
            out[name[:-9]] = html.escape(t(reader.language, f"kind.{value}"))
        elif name.endswith("_setting"):
            out[name[:-8]] = html.escape(t(reader.language, f"setting.{value}"))
        elif name.endswith("_td"):
            out[name[:-3]] = reader.duration(value)
        elif isinstance(value, str):
            out[name] = html.escape(value)
        else:
            out[name] = value
    return out


def buttons_markup(
    reader: Reader, rows: list[list[dict[str, str]]] | None
) -> list[list[dict[str, str]]]:
    """Button specs → InlineKeyboardButton dicts: text from the catalog or a card name."""
    result: list[list[dict[str, str]]] = []
    for row in rows or []:
        out_row: list[dict[str, str]] = []
        for spec in row:
            if "user" in spec:
                person = reader.people.get(int(spec["user"]))
                text = person.name if person else t(reader.language, "person.unknown")
            elif "card" in spec:
                text = reader.card_name(spec["card"])
            elif "t" in spec:
                text = t(reader.language, spec["t"], **spec.get("args", {}))  # type: ignore[arg-type]
            else:
                text = spec.get("text", "?")
            button = {"text": text}
            if "url" in spec:
                button["url"] = spec["url"]
            else:
                button["callback_data"] = spec["data"]
            out_row.append(button)
        result.append(out_row)
    return result


def keyboard(rows: list[list[dict[str, str]]]) -> InlineKeyboardMarkup | None:
    """An inline keyboard from rendered button dicts (None when there are none)."""
    if not rows:
        return None
    return InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(
                    text=b["text"], url=b.get("url"), callback_data=b.get("callback_data")
                )
                for b in row
            ]
            for row in rows
        ]
    )


def labels_of(pack: Pack) -> dict[str, str] | None:
    """What a payload carries so a custom pack's cards render by name."""
    return dict(pack.labels) if pack.labels else None
