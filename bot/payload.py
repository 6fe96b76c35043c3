"""The outbox payload: a message's kind (its catalog key), typed arguments, and what the
sender needs (zone, card names, buttons, an edit's target, whom to tell if it cannot go).

`Payload.to_row` is the one place a payload becomes an outbox row, for the announcements
and for every message outside a command (`Services.tell`: `/hand`, `/log`, `/status`, …).
Arguments are typed values (`User`, `Card`, `Moment`, `Span`, …) stored with a tag
(`{"$user": 5}`), never typed by the suffix of their names. A row carries `v` (its format)
and `kind`. Rows of format 1 (before `v`: `msg`, arguments typed by name suffixes such as
`hand_cards`, `suggester_user`, `ends_at`, `day_length_td`) still read: `Payload.from_row`
upgrades them, and so does the builder for callers that still pass such names.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from engine.cards import CATEGORY_ORDER, Pack
from engine.cards import Category as CardCategory

VERSION = 2
Buttons = list[list[dict[str, Any]]]


@dataclass(frozen=True)
class User:
    """A person, shown as a mention."""

    id: int


@dataclass(frozen=True)
class Users:
    """People, shown as mentions separated by commas ("—" for none); gives `count` too."""

    ids: tuple[int, ...]


@dataclass(frozen=True)
class Card:
    """A card, shown by its name in the reader's language (or the custom pack's)."""

    id: str


@dataclass(frozen=True)
class Cards:
    ids: tuple[str, ...]


@dataclass(frozen=True)
class Moment:
    """A moment (ISO 8601), shown in the chat's time zone."""

    iso: str

    @classmethod
    def of(cls, at: datetime) -> Moment:
        return cls(at.isoformat())


@dataclass(frozen=True)
class Span:
    """A length of time, shown in words ("1 day 2 hours")."""

    seconds: float

    @classmethod
    def of(cls, span: timedelta) -> Span:
        return cls(span.total_seconds())


@dataclass(frozen=True)
class Category:
    """A card category (suspect, weapon, place), shown by its name."""

    value: str


@dataclass(frozen=True)
class Setting:
    """A setting's name, shown as its label."""

    name: str


@dataclass(frozen=True)
class Zone:
    """A time zone (IANA name), shown by its city in the reader's language and its offset."""

    name: str


@dataclass(frozen=True)
class Language:
    """A catalog's language (its code), shown by its own name ("Deutsch")."""

    code: str


@dataclass(frozen=True)
class PostLink:
    """A link to the post another row sent to the same chat, named by that row's key. The
    sender fills in `url` as it sends (bot.delivery.links; never stored): None where the
    chat has no message links, or the post was never sent."""

    key: str
    url: str | None = None


Typed = (
    User | Users | Card | Cards | Moment | Span | Category | Setting | Zone | Language | PostLink
)
_TAGS: Mapping[str, type[Typed]] = MappingProxyType(
    {
        "$user": User,
        "$users": Users,
        "$card": Card,
        "$cards": Cards,
        "$at": Moment,
        "$span": Span,
        "$category": Category,
        "$setting": Setting,
        "$zone": Zone,
        "$language": Language,
        "$post": PostLink,
    }
)
_TAG_OF = MappingProxyType({kind: tag for tag, kind in _TAGS.items()})
# Format 1: a name's suffix typed its value; the name without it is the placeholder.
_SUFFIXES: tuple[tuple[str, type[Typed]], ...] = (
    ("_users", Users),
    ("_user", User),
    ("_cards", Cards),
    ("_card", Card),
    ("_category", Category),
    ("_setting", Setting),
    ("_td", Span),
    ("_at", Moment),
)


def _make(kind: type[Typed], raw: Any) -> Typed:
    if kind is Users or kind is Cards:
        return kind(tuple(raw))
    return kind(raw)


def _raw(value: Typed) -> Any:
    raw = next(iter(value.__dict__.values()))
    return list(raw) if isinstance(raw, tuple) else raw


def encode(value: Any) -> Any:
    """A typed argument tree as JSON: typed values tagged, lists and dicts walked."""
    if isinstance(value, Typed):
        return {_TAG_OF[type(value)]: _raw(value)}
    if isinstance(value, list | tuple):
        return [encode(item) for item in value]
    if isinstance(value, dict):
        return {name: encode(item) for name, item in value.items()}
    return value


def decode(value: Any) -> Any:
    """Stored JSON back to typed values (the inverse of `encode`)."""
    if isinstance(value, dict):
        if len(value) == 1:
            ((tag, raw),) = value.items()
            if tag in _TAGS:
                return _make(_TAGS[tag], raw)
        return {name: decode(item) for name, item in value.items()}
    if isinstance(value, list):
        return [decode(item) for item in value]
    return value


def upgrade(args: dict[str, Any]) -> dict[str, Any]:
    """Arguments typed by their names (format 1) as typed values under the placeholder's name:
    `suggester_user: 5` → `suggester: User(5)`, `ends_at` → `ends_at: Moment`, and `user`
    (an entry's person) → `User`. Lists of entries are upgraded; other dicts (settings, cards
    by category) are values. Typed values pass unchanged, so upgrading twice is harmless."""
    out: dict[str, Any] = {}
    for name, value in args.items():
        if isinstance(value, Typed):
            out[name] = value
        elif name == "user" and isinstance(value, int) and not isinstance(value, bool):
            out[name] = User(value)
        elif isinstance(value, list) and not name.endswith(("_users", "_cards")):
            out[name] = [upgrade(v) if isinstance(v, dict) else v for v in value]
        elif isinstance(value, dict):
            out[name] = value
        else:
            out.update(_by_suffix(name, value))
    return out


def _by_suffix(name: str, value: Any) -> dict[str, Any]:
    placeholder, kind = _typed_name(name)
    if kind is None:
        return {name: value}
    return {placeholder: None if value is None else _make(kind, value)}


@lru_cache(maxsize=4096)  # the catalogs' argument names: a few hundred
def _typed_name(name: str) -> tuple[str, type[Typed] | None]:
    """The placeholder an argument named by its type fills, and that type (None: untyped)."""
    for suffix, kind in _SUFFIXES:
        if name.endswith(suffix) and len(name) > len(suffix):
            return (name if kind is Moment else name[: -len(suffix)]), kind
    return name, None


def post_keys(value: Any) -> set[str]:
    """The keys of the posts a (typed) argument tree links to."""
    if isinstance(value, PostLink):
        return {value.key}
    if isinstance(value, dict):
        return {k for item in value.values() for k in post_keys(item)}
    if isinstance(value, list):
        return {k for item in value for k in post_keys(item)}
    return set()


def with_urls(value: Any, urls: Mapping[str, str | None]) -> Any:
    """The argument tree with each PostLink given its url from `urls` (by key)."""
    if isinstance(value, PostLink):
        return PostLink(value.key, urls.get(value.key))
    if isinstance(value, dict):
        return {name: with_urls(item, urls) for name, item in value.items()}
    if isinstance(value, list):
        return [with_urls(item, urls) for item in value]
    return value


def users_in(value: Any) -> set[int]:
    """The people a (typed) argument tree names: whose names the reader needs."""
    if isinstance(value, User):
        return {value.id}
    if isinstance(value, Users):
        return set(value.ids)
    if isinstance(value, dict):
        return {u for item in value.values() for u in users_in(item)}
    if isinstance(value, list):
        return {u for item in value for u in users_in(item)}
    return set()


@dataclass(frozen=True)
class Payload:
    """What an outbox row carries. `args` holds typed values (or format-1 names, upgraded)."""

    kind: str
    args: dict[str, Any]
    game: int | None = None
    tz: str | None = None
    labels: dict[str, str] | None = None
    buttons: Buttons | None = None
    notify: tuple[int, int] | None = None  # the thread told if a private message cannot go
    edit_of: str | None = None  # the key of the row whose sent message this one edits
    reply_to_message_id: int | None = None
    board: dict[str, Any] | None = None  # a board position: the post goes as its picture
    picture: str | None = None  # the post goes as this picture of its args (bot.render.pictures)
    pin: bool = False  # the post is pinned once sent (a game's index: bot.delivery.pins)
    keep_place: bool = False  # an edit never merged into an earlier one (storage.messages_owed)
    # The clock (its name and ref: engine.commands.ClockSeen) the message starts once it is
    # delivered: the sender reports the moment Telegram took it (bot.delivery.clocks).
    clock: tuple[str, int] | None = None
    decoration: bool = False  # an edit only told: later rows of its chat go first (storage.claims)

    def to_row(self) -> dict[str, Any]:
        """The row's JSON (format `VERSION`); storage reads `op`, `target`, `notify`,
        `reply_to_message_id` and `decoration` from it."""
        row: dict[str, Any] = {"v": VERSION, "kind": self.kind, "args": encode(upgrade(self.args))}
        if self.edit_of is not None:
            row.update(op="edit", target=self.edit_of)
        optional = {
            "game": self.game,
            "tz": self.tz,
            "labels": self.labels or None,
            "buttons": self.buttons or None,
            "notify": list(self.notify) if self.notify is not None else None,
            "reply_to_message_id": self.reply_to_message_id,
            "board": self.board,
            "picture": self.picture,
            "pin": self.pin or None,
            "keep_place": self.keep_place or None,
            "clock": list(self.clock) if self.clock is not None else None,
            "decoration": self.decoration or None,
        }
        row.update({name: value for name, value in optional.items() if value is not None})
        return row

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Payload:
        """A stored payload of any format (format 1 has no `v` and names its kind `msg`)."""
        if row.get("v") is None:
            args = upgrade(row.get("args") or {})
            kind = row["msg"]
        else:
            args = decode(row.get("args") or {})
            kind = row["kind"]
        notify = row.get("notify")
        clock = row.get("clock")
        return cls(
            kind=kind,
            args=args,
            game=row.get("game"),
            tz=row.get("tz"),
            labels=row.get("labels"),
            buttons=row.get("buttons"),
            notify=(int(notify[0]), int(notify[1])) if notify else None,
            edit_of=row.get("target") if row.get("op") == "edit" else None,
            reply_to_message_id=row.get("reply_to_message_id"),
            board=row.get("board"),
            picture=row.get("picture"),
            pin=bool(row.get("pin")),
            keep_place=bool(row.get("keep_place")),
            clock=(str(clock[0]), int(clock[1])) if clock else None,
            decoration=bool(row.get("decoration")),
        )


def cards_listing(cards_of: Callable[[CardCategory], Sequence[str]]) -> dict[str, list[str]]:
    """Cards by category, in category order, as a message lists them: a pack's
    (`pack.cards_of`) or a game's cards in play (`game.in_play`)."""
    return {category.value: list(cards_of(category)) for category in CATEGORY_ORDER}


def labels_of(pack: Pack) -> dict[str, str] | None:
    """What a payload carries so a custom pack's cards render by name."""
    return dict(pack.labels) if pack.labels else None
