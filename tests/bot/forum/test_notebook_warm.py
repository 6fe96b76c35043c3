"""The sheets a game's players looked at are worked out again as the game changes, in the
background, so their next look finds them ready; the seats nobody looked at, and games
nobody looked at, cost nothing; a change while they are worked out has them worked out
once more, for the newest state."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Sequence
from pathlib import Path

import pytest

from bot.notebook import keeper as keeper_module
from bot.notebook.keeper import Notebooks
from bot.notebook.sheet import Payload, sheet_of, with_marks
from engine.events import Event
from engine.ids import Seat
from engine.settings import NotebookHelp, Settings
from engine.state import Answer, Game
from storage.service import Store
from tests.support.stored_games import NOW, new_game, planner
from tests.support.stored_games import answer_for as answer
from tests.support.stored_games import suggestion_for as suggestion


async def _move(store: Store, game_id: int, n: int) -> None:
    """A suggestion, and its answer when the GM did not give it."""
    game = await store.load(game_id)
    actor, target = game.players[n % 3].user, game.players[(n + 1) % 3].user
    await store.execute(game_id, suggestion(game, actor, target, n), NOW, planner)
    game = await store.load(game_id)
    if game.suggestions[-1].answer is Answer.PENDING:
        await store.execute(game_id, answer(game, len(game.suggestions)), NOW, planner)


async def test_a_looked_at_sheet_is_ready_after_a_change_and_others_cost_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    worked: list[tuple[Seat, int]] = []
    gate = threading.Event()
    gate.set()

    def counted(game: Game, events: Sequence[Event], seat: Seat) -> Payload:
        gate.wait(10)
        worked.append((seat, len(events)))
        return sheet_of(game, events, seat)

    monkeypatch.setattr(keeper_module, "sheet_of", counted)
    store = await Store.open(f"sqlite:///{tmp_path}/bot.db")
    try:
        settings = Settings(notebook=NotebookHelp.ODDS, suggestions_per_day=10)
        game_id = (await new_game(store, players=3, settings=settings)).game_id
        unseen = (await new_game(store, players=3, settings=settings, chat_id=-5)).game_id
        keeper = Notebooks(store)
        await keeper.sheet(game_id, 0)
        assert worked == [(0, len(await store.events(game_id)))]

        await _move(store, game_id, 0)
        keeper.warm(game_id)
        keeper.warm(unseen)
        await keeper.warmed()
        length = len(await store.events(game_id))
        assert worked[1:] == [(0, length)]  # seat 0 only: seats 1 and 2 never looked

        fresh = sheet_of(await store.load(game_id), await store.events(game_id), 0)
        assert await keeper.sheet(game_id, 0) == with_marks(fresh, {})
        assert len(worked) == 2  # ready: the look worked nothing out

        gate.clear()  # the next warming waits in its thread while the game changes again
        await _move(store, game_id, 1)
        keeper.warm(game_id)
        await asyncio.sleep(0.05)
        await _move(store, game_id, 2)
        keeper.warm(game_id)
        gate.set()
        await keeper.warmed()
        newest = len(await store.events(game_id))
        assert worked[-1] == (0, newest)
        before = len(worked)
        await keeper.sheet(game_id, 0)
        assert len(worked) == before
    finally:
        gate.set()
        await store.close()


async def test_a_stopped_keeper_lets_its_warming_go_and_warms_no_more(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    worked: list[int] = []

    def counted(game: Game, events: Sequence[Event], seat: Seat) -> Payload:
        worked.append(len(events))
        return sheet_of(game, events, seat)

    monkeypatch.setattr(keeper_module, "sheet_of", counted)
    store = await Store.open(f"sqlite:///{tmp_path}/bot.db")
    try:
        settings = Settings(notebook=NotebookHelp.ODDS, suggestions_per_day=10)
        game_id = (await new_game(store, players=3, settings=settings)).game_id
        keeper = Notebooks(store)
        await keeper.sheet(game_id, 1)
        await _move(store, game_id, 0)
        keeper.warm(game_id)
        keeper.stop()
        await keeper.warmed()  # let go, not left running against a closing store
        before = len(worked)
        await _move(store, game_id, 1)
        keeper.warm(game_id)
        await keeper.warmed()
        assert len(worked) == before
    finally:
        await store.close()
