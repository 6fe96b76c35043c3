"""Names, languages and chat defaults as the bot layer needs them, read from storage."""

from __future__ import annotations

from collections.abc import Iterable

from bot.render.reader import Person
from engine.settings import Settings
from locales import LANGUAGES, known, supported
from storage.service import Store

MAX_GAMES_REMEMBERED = 10_000


class Directory:
    """Look-ups for rendering and handlers: who is who, and which language they read."""

    def __init__(self, store: Store, default_language: str) -> None:
        self.store = store
        self.default_language = default_language
        self._game_chats: dict[int, int] = {}

    async def person_language(self, user_id: int, game_id: int | None = None) -> str:
        """The language of a person's private messages: the one they chose (/language),
        else their Telegram language if we have a catalog for it, else that of the chat of
        the game the message is about, else the default."""
        person = await self.store.people.get(user_id)
        if person is not None and person.language in LANGUAGES:
            return person.language
        if person is not None and person.language_code and known(person.language_code):
            return supported(person.language_code)
        if game_id is not None:
            chat = await self.game_chat(game_id)
            if chat is not None:
                return await self.chat_language(chat)
        return self.default_language

    async def person_timezone(self, user_id: int) -> str | None:
        """The time zone the person chose (/timezone); None: each game's chat's."""
        person = await self.store.people.get(user_id)
        return person.timezone if person is not None else None

    async def game_chat(self, game_id: int) -> int | None:
        """The chat a game is played in (remembered: a game's chat changes only when its
        group becomes a supergroup, and then its language goes along)."""
        if game_id not in self._game_chats:
            ref = await self.store.game(game_id)
            if ref is None:
                return None
            if len(self._game_chats) >= MAX_GAMES_REMEMBERED:
                self._game_chats.clear()
            self._game_chats[game_id] = ref.chat_id
        return self._game_chats[game_id]

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
