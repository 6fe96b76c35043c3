"""Names, languages and chat defaults as the bot layer needs them, read from storage."""

from __future__ import annotations

from collections.abc import Iterable

from bot.render.reader import Person
from engine.settings import Settings
from locales import supported
from storage.service import Store


class Directory:
    """Look-ups for rendering and handlers: who is who, and which language they read."""

    def __init__(self, store: Store, default_language: str) -> None:
        self.store = store
        self.default_language = default_language

    async def person_language(self, user_id: int) -> str:
        """The person's Telegram language if we have a catalog for it, else the default."""
        person = await self.store.people.get(user_id)
        if person is None or not person.language_code:
            return self.default_language
        return supported(person.language_code)

    async def chat_language(self, chat_id: int) -> str:
        chosen = (await self.store.chats.get(chat_id)).language
        return supported(chosen) if chosen else self.default_language

    async def chat_settings(self, chat_id: int) -> Settings:
        return (await self.store.chats.get(chat_id)).settings

    async def dm_ok(self, user_id: int) -> bool:
        """True only once a direct message is known to work."""
        person = await self.store.people.get(user_id)
        return bool(person and person.dm_ok)

    async def persons(self, user_ids: Iterable[int]) -> dict[int, Person]:
        found = await self.store.people.get_many(user_ids)
        return {uid: Person(p.name, p.username) for uid, p in found.items()}

    async def user_by_username(self, username: str) -> int | None:
        return await self.store.people.by_username(username)

    async def wants_reminders(self, user_id: int) -> bool:
        person = await self.store.people.get(user_id)
        return person is None or person.reminders
