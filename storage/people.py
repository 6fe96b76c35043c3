"""People the bot has seen: name, username, Telegram's language, the language and time zone
they chose, and whether a direct message works.

Look-ups are served from a per-process cache: every message the bot sends names people and
reads its reader's language, and reading them from the database each time was most of the
sender's work. A change made by this process is seen at once (the cache is written
through); one made by another worker within FRESH_SECONDS (storage.freshness: a worker
alone keeps them until another one is seen)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select, update

from storage.database import Database
from storage.freshness import Copies, Freshness
from storage.models import PersonRecord
from storage.sql import insert_for

FRESH_SECONDS = 60.0
MAX_CACHED = 50_000


@dataclass(frozen=True)
class Person:
    """dm_ok: None until the bot has tried (or the person started it), then True/False;
    language and timezone: None until the person chooses one."""

    user_id: int
    name: str
    username: str | None
    language_code: str | None
    dm_ok: bool | None
    created_at: datetime
    updated_at: datetime
    reminders: bool = True
    language: str | None = None
    timezone: str | None = None


def _person(r: Any) -> Person:
    return Person(
        user_id=r.user_id,
        name=r.name,
        username=r.username,
        language_code=r.language_code,
        dm_ok=r.dm_ok,
        created_at=r.created_at,
        updated_at=r.updated_at,
        reminders=r.reminders,
        language=r.language,
        timezone=r.timezone,
    )


class People:
    """Upsert and look up people; Telegram user ids are the keys."""

    def __init__(
        self,
        db: Database,
        fresh_seconds: float = FRESH_SECONDS,
        freshness: Freshness | None = None,
    ) -> None:
        self.db = db
        self.freshness = freshness or Freshness()
        self._known: Copies[int, Person] = Copies(self.freshness, fresh_seconds, MAX_CACHED)
        # lower-case @name -> user id
        self._usernames: Copies[str, int] = Copies(self.freshness, fresh_seconds, MAX_CACHED)

    def _keep(self, person: Person) -> Person:
        if person.username:
            self._usernames.put(person.username.lower(), person.user_id)
        return self._known.put(person.user_id, person)

    def _change(self, user_id: int, **values: Any) -> None:
        found = self._known.get(user_id)
        if found is not None:
            self._keep(replace(found, **values))

    async def upsert(
        self,
        user_id: int,
        name: str,
        username: str | None = None,
        language_code: str | None = None,
        now: datetime | None = None,
    ) -> Person:
        """Record what Telegram says about a person now; dm_ok is left as it was."""
        now = now or datetime.now(UTC)
        values = {"name": name, "username": username, "language_code": language_code}
        values["username_key"] = username.lower() if username else None
        insert = insert_for(self.db.dialect, PersonRecord).values(
            user_id=user_id, dm_ok=None, created_at=now, updated_at=now, **values
        )
        query = insert.on_conflict_do_update(
            index_elements=["user_id"], set_=values | {"updated_at": now}
        ).returning(PersonRecord)
        person = await self.db.run_write(lambda conn: _person(conn.execute(query).one()))
        # Names change rarely (callers upsert only then): forget the person's old @name.
        self._usernames.drop(lambda _, uid: uid == user_id)
        return self._keep(person)

    async def set_dm_ok(self, user_id: int, ok: bool, now: datetime | None = None) -> bool:
        """Whether a direct message to the person works; False if the person is unknown."""
        query = (
            update(PersonRecord)
            .where(PersonRecord.user_id == user_id)
            .values(dm_ok=ok, updated_at=now or datetime.now(UTC))
        )
        changed = await self.db.run_write(lambda conn: bool(conn.execute(query).rowcount))
        self._change(user_id, dm_ok=ok)
        return changed

    async def set_reminders(self, user_id: int, on: bool) -> bool:
        """Whether the person wants private reminders before deadlines."""
        query = update(PersonRecord).where(PersonRecord.user_id == user_id).values(reminders=on)
        changed = await self.db.run_write(lambda conn: bool(conn.execute(query).rowcount))
        self._change(user_id, reminders=on)
        return changed

    async def set_language(self, user_id: int, language: str | None) -> bool:
        """The language the person reads their private messages in (None: Telegram's)."""
        return await self._set(user_id, language=language)

    async def set_timezone(self, user_id: int, timezone: str | None) -> bool:
        """The time zone the person reads deadlines in (None: each game's chat's)."""
        return await self._set(user_id, timezone=timezone)

    async def _set(self, user_id: int, **values: Any) -> bool:
        query = update(PersonRecord).where(PersonRecord.user_id == user_id).values(**values)
        changed = await self.db.run_write(lambda conn: bool(conn.execute(query).rowcount))
        self._change(user_id, **values)
        return changed

    async def get(self, user_id: int) -> Person | None:
        cached = self._known.get(user_id)
        if cached is not None:
            return cached
        query = select(PersonRecord).where(PersonRecord.user_id == user_id)
        row = await self.db.run_read(lambda conn: conn.execute(query).first())
        return self._keep(_person(row)) if row is not None else None

    async def by_username(self, username: str) -> int | None:
        """The user id behind an @username (any case), the latest seen if it changed hands."""
        p = PersonRecord
        name = username.removeprefix("@").lower()
        cached = self._usernames.get(name)
        if cached is not None:
            return cached
        query = (
            select(p.user_id).where(p.username_key == name).order_by(p.updated_at.desc()).limit(1)
        )
        found: int | None = await self.db.run_read(lambda conn: conn.execute(query).scalar())
        if found is not None:
            self._usernames.put(name, found)
        return found

    async def get_many(self, user_ids: Iterable[int]) -> dict[int, Person]:
        """Known people among user_ids, by id (to render names in bulk)."""
        found: dict[int, Person] = {}
        missing = set()
        for user_id in set(user_ids):
            cached = self._known.get(user_id)
            if cached is None:
                missing.add(user_id)
            else:
                found[user_id] = cached
        if not missing:
            return found
        query = select(PersonRecord).where(PersonRecord.user_id.in_(missing))
        rows = await self.db.run_read(lambda conn: conn.execute(query).all())
        return found | {row.user_id: self._keep(_person(row)) for row in rows}
