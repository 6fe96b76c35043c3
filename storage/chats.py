"""Chat settings: the defaults a chat's admins set for its new games, and its language."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.engine import Connection

from engine import REGISTRY
from engine.cards import Pack
from engine.codec import from_dict, to_dict
from engine.errors import RuleError
from engine.formats import FormatSpec, spec_for
from engine.settings import Settings
from engine.state import Phase
from storage.chat_moves import Moved, move_chat
from storage.database import Database
from storage.freshness import Copies, Freshness
from storage.messages_owed import OutboxItem, insert_items
from storage.models import ChatNameRecord, ChatSettingsRecord, GameRecord
from storage.sql import dumps, insert_for, loads

log = logging.getLogger(__name__)
LABEL_SECONDS = 600.0
DEFAULTS_SECONDS = 60.0  # a chat's defaults, read for every message to a group, are kept this long


@dataclass(frozen=True)
class ChatDefaults:
    """What a chat's new games start with; language None means "not chosen"."""

    chat_id: int
    settings: Settings
    language: str | None
    pack: Pack | None = None


@dataclass(frozen=True)
class Welcome:
    """What the bot owes a group it is (back) in: its introduction, and the rights it lacks
    ("" for none to tell now)."""

    introduce: bool
    tell: str


class Chats:
    """Get and set a chat's defaults (engine Settings, stored via engine.codec)."""

    def __init__(
        self,
        db: Database,
        freshness: Freshness | None = None,
        specs: Mapping[str, FormatSpec] = REGISTRY.specs,
    ) -> None:
        self.db = db
        self.specs = specs  # the formats' specs the stored settings are checked against
        self.freshness = freshness or Freshness()
        self._labels: Copies[tuple[int, int], str] = Copies(self.freshness, LABEL_SECONDS)
        self._defaults: Copies[int, ChatDefaults] = Copies(self.freshness, DEFAULTS_SECONDS)
        self.on_move: Callable[[], None] | None = None  # told when a chat's games moved

    def known_label(self, chat_id: int, topic_id: int) -> str | None:
        """`cached_label` if it is remembered and fresh; None when it must be read."""
        return self._labels.get((chat_id, topic_id))

    def cached_label(self, conn: Connection, chat_id: int, topic_id: int) -> str:
        """`place_label`, remembered for LABEL_SECONDS (names change rarely; a rename seen
        by this process is at once, one seen by another worker within that time; a worker
        alone keeps it: storage.freshness)."""
        known = self.known_label(chat_id, topic_id)
        if known is not None:
            return known
        return self._labels.put((chat_id, topic_id), place_label(conn, chat_id, topic_id))

    async def get(self, chat_id: int) -> ChatDefaults:
        """The chat's defaults; the engine's defaults for a chat nobody configured.

        Kept DEFAULTS_SECONDS: a change made here is seen at once, another worker's within
        that time (a worker alone keeps it: storage.freshness)."""
        found = self._defaults.get(chat_id)
        if found is not None:
            return found
        query = select(ChatSettingsRecord).where(ChatSettingsRecord.chat_id == chat_id)
        row = await self.db.run_read(lambda conn: conn.execute(query).first())
        if row is None:
            defaults = ChatDefaults(chat_id, Settings(), None)
        else:
            pack = from_dict(Pack, loads(row.pack)) if row.pack else None
            defaults = ChatDefaults(
                chat_id, _settings(row.settings, self.specs), row.language, pack
            )
        return self._defaults.put(chat_id, defaults)

    async def set_pack(self, chat_id: int, pack: Pack | None, now: datetime | None = None) -> None:
        """The chat's own card pack (None: none)."""
        stored = dumps(to_dict(pack)) if pack is not None else None
        await self._put(chat_id, {"pack": stored}, now)

    async def set_settings(
        self, chat_id: int, settings: Settings, now: datetime | None = None
    ) -> None:
        await self._put(chat_id, {"settings": dumps(to_dict(settings))}, now)

    async def set_language(
        self, chat_id: int, language: str | None, now: datetime | None = None
    ) -> None:
        await self._put(chat_id, {"language": language}, now)

    async def set_name(
        self, chat_id: int, topic_id: int, name: str, now: datetime | None = None
    ) -> None:
        """The chat's title (topic 0) or a forum topic's name, as Telegram last showed it."""
        self._labels.drop(lambda place, _: place[0] == chat_id)
        values = {"name": name[:256], "updated_at": now or datetime.now(UTC)}
        insert = insert_for(self.db.dialect, ChatNameRecord).values(
            chat_id=chat_id, topic_id=topic_id, **values
        )
        query = insert.on_conflict_do_update(index_elements=["chat_id", "topic_id"], set_=values)
        await self.db.run_write(lambda conn: conn.execute(query))

    async def label(self, chat_id: int, topic_id: int) -> str:
        """ "Title · Topic" of a game's place ("" while the chat's title is unknown)."""
        return await self.db.run_read(place_label, chat_id, topic_id)

    async def migrate(self, old_chat_id: int, new_chat_id: int) -> Moved:
        """A group became a supergroup: its games, defaults and owed messages move along.

        One transaction; moving again (or the other way round later) changes nothing."""
        moved = await self.db.run_write(move_chat, old_chat_id, new_chat_id)
        for chat in (old_chat_id, new_chat_id):
            self._defaults.pop(chat)
        if moved.anything and self.on_move is not None:
            self.on_move()
        if moved.anything:
            log.info("chat %s became %s: moved %s", old_chat_id, new_chat_id, moved)
        return moved

    async def welcome(
        self,
        chat_id: int,
        lacks: str,
        now: datetime,
        again_after: timedelta,
        owed: Callable[[Welcome], list[OutboxItem]],
    ) -> Welcome:
        """The bot is in the chat, lacking `lacks` ("" when nothing): whether to introduce
        itself (never yet, or not within `again_after`, and no game under way here), and
        which lacks to tell (not told already since the last introduction). Both are
        remembered, and the messages `owed` makes of them stored, in one write: each is
        said once, and said even if the process stops right after."""
        since = now - again_after
        return await self.db.run_write(_welcome, chat_id, lacks, now, since, owed)

    async def _put(self, chat_id: int, values: dict[str, object], now: datetime | None) -> None:
        values = values | {"updated_at": now or datetime.now(UTC)}
        defaults = {"settings": dumps(to_dict(Settings())), "language": None, "pack": None}
        insert = insert_for(self.db.dialect, ChatSettingsRecord).values(
            chat_id=chat_id, **(defaults | values)
        )
        query = insert.on_conflict_do_update(index_elements=["chat_id"], set_=values)
        try:
            await self.db.run_write(lambda conn: conn.execute(query))
        finally:
            self._defaults.pop(chat_id)


def _welcome(
    conn: Connection,
    chat_id: int,
    lacks: str,
    now: datetime,
    introduced_since: datetime,
    owed: Callable[[Welcome], list[OutboxItem]],
) -> Welcome:
    c, g = ChatSettingsRecord, GameRecord
    defaults = {"settings": dumps(to_dict(Settings())), "updated_at": now}
    insert = insert_for(conn.dialect.name, c).values(chat_id=chat_id, **defaults)
    conn.execute(insert.on_conflict_do_nothing(index_elements=["chat_id"]))
    locked = select(c.introduced_at, c.rights_told).where(c.chat_id == chat_id).with_for_update()
    row = conn.execute(locked).one()
    playing = select(g.id).where(g.chat_id == chat_id, g.status != Phase.ENDED.value).limit(1)
    introduce = (row.introduced_at is None or row.introduced_at <= introduced_since) and (
        conn.execute(playing).first() is None
    )
    told = "" if introduce else row.rights_told or ""
    values: dict[str, object] = {"rights_told": lacks or None}
    if introduce:
        values |= {"introduced_at": now, "updated_at": now}
    conn.execute(update(c).where(c.chat_id == chat_id).values(**values))
    welcome = Welcome(introduce, lacks if lacks != told else "")
    insert_items(conn, owed(welcome), now, None)
    return welcome


def place_label(conn: Connection, chat_id: int, topic_id: int) -> str:
    """ "Title · Topic" (or just the title) of a chat topic; "" if the title is unknown."""
    n = ChatNameRecord
    query = select(n.topic_id, n.name).where(n.chat_id == chat_id, n.topic_id.in_({0, topic_id}))
    names = dict(conn.execute(query).all())
    title = names.get(0, "")
    topic = names.get(topic_id, "") if topic_id else ""
    if title and topic:
        return f"{title} · {topic}"
    return title or topic


def _checked(data: dict[str, Any], specs: Mapping[str, FormatSpec]) -> Settings:
    """Settings read and checked against their format (of the registry's specs)."""
    settings = from_dict(Settings, data)
    spec_for(settings, specs)
    return settings


def _settings(text: str, specs: Mapping[str, FormatSpec]) -> Settings:
    """Stored defaults; a setting that no longer validates falls back to the engine's default."""
    data = loads(text)
    try:
        return _checked(data, specs)
    except (RuleError, TypeError, ValueError, KeyError):
        valid = Settings()
        for name, value in data.items():
            try:
                valid = _checked(to_dict(valid) | {name: value}, specs)
            except (RuleError, TypeError, ValueError, KeyError):
                continue
        return valid
