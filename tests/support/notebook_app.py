"""The notebook Mini App on a stored game, for its tests: a running game of four people on
SQLite (users 1-4, Alice to Dave), the bot's Services on it, and the Mini App's routes."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from aiohttp import web

from bot.services import Services
from bot.web.notebook_app import NotebookApp
from engine.settings import NotebookHelp, Settings
from engine.state import Game
from storage.service import Store
from tests.support.init_data import person, sign_init_data
from tests.support.stored_games import new_game

TOKEN = "123456:notebook-app-test"
NAMES = {1: "Alice", 2: "Bob", 3: "Carol", 4: "Dave"}


@dataclass
class NotebookTable:
    """A running game and the bot's services on its store; `now` is the services' clock."""

    store: Store
    services: Services
    game_id: int
    game: Game
    now: datetime

    def init_data(self, user_id: int, *, age: float = 0, token: str = TOKEN) -> str:
        """initData Telegram would give `user_id`'s page, signed `age` seconds ago."""
        signed = int(self.now.timestamp() - age)
        return sign_init_data(token, person(user_id, NAMES.get(user_id, "X")), auth_date=signed)

    def hand(self, user_id: int) -> list[str]:
        player = self.game.player_of(user_id)
        assert player is not None
        return list(player.hand)

    def seat(self, user_id: int) -> int:
        player = self.game.player_of(user_id)
        assert player is not None
        return player.seat


@asynccontextmanager
async def notebook_table(
    tmp_path: Path, *, level: NotebookHelp = NotebookHelp.FACTS, now: datetime | None = None
) -> AsyncIterator[NotebookTable]:
    """A started game of four whose notebooks tell `level`; the clock stands at `now`."""
    moment = now or datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
    store = await Store.open(f"sqlite:///{tmp_path / 'notebook.db'}")
    try:
        for user_id, name in NAMES.items():
            await store.people.upsert(user_id, name, name.lower(), "en")
        outcome = await new_game(store, settings=Settings(notebook=level))
        services = Services(store=store, clock=lambda: moment)
        yield NotebookTable(store, services, outcome.game_id, outcome.state, moment)
    finally:
        await store.close()


def notebook_web_app(
    services: Callable[[], Services | None], token: str = TOKEN
) -> web.Application:
    """An aiohttp application with the Mini App's routes alone."""
    app = web.Application()
    NotebookApp(services, token).add_routes(app.router)
    return app
