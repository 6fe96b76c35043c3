"""The sheets a game's players looked at are worked out again as the game changes, in the
background, so their next look finds them ready; the seats nobody looked at, games nobody
looked at, and changes that tell a seat nothing new cost nothing; a change while they are
worked out has them worked out once more, for the newest state; a stopping worker lets
its warming go."""

from __future__ import annotations

import asyncio
import gc
import threading
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.notebook import keeper as keeper_module
from bot.notebook.keeper import Notebooks
from bot.notebook.sheet import Payload, sheet_of, with_marks
from engine import commands as cmd
from engine.events import Event
from engine.ids import Seat
from engine.settings import NotebookHelp, Settings
from engine.state import Answer, Game
from storage.service import Store
from tests.support.stored_games import NOW, new_game, planner
from tests.support.stored_games import answer_for as answer
from tests.support.stored_games import suggestion_for as suggestion

SETTINGS = Settings(notebook=NotebookHelp.ODDS, suggestions_per_day=10)


@dataclass
class Worked:
    """Every sheet worked out (seat, log length); `gate` cleared holds the next one in its
    thread, which sets `entered` first."""

    sheets: list[tuple[Seat, int]] = field(default_factory=list)
    gate: threading.Event = field(default_factory=threading.Event)
    entered: threading.Event = field(default_factory=threading.Event)

    def sheet(self, game: Game, events: Sequence[Event], seat: Seat) -> Payload:
        self.entered.set()
        self.gate.wait(10)
        self.sheets.append((seat, len(events)))
        return sheet_of(game, events, seat)


@pytest.fixture
def worked(monkeypatch: pytest.MonkeyPatch) -> Worked:
    counted = Worked()
    counted.gate.set()
    monkeypatch.setattr(keeper_module, "sheet_of", counted.sheet)
    return counted


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    opened = await Store.open(f"sqlite:///{tmp_path}/bot.db")
    yield opened
    await opened.close()


async def _move(store: Store, game_id: int, n: int) -> None:
    """Suggestion n (seat n % 3 asks the next seat), and its answer when the GM did not
    give it: it tells the suggester and the seat after the target something new."""
    game = await store.load(game_id)
    actor, target = game.players[n % 3].user, game.players[(n + 1) % 3].user
    await store.execute(game_id, suggestion(game, actor, target, n), NOW, planner)
    game = await store.load(game_id)
    if game.suggestions[-1].answer is Answer.PENDING:
        await store.execute(game_id, answer(game, len(game.suggestions)), NOW, planner)


async def test_a_looked_at_sheet_is_ready_after_a_change_and_others_cost_nothing(
    store: Store, worked: Worked
) -> None:
    game_id = (await new_game(store, players=3, settings=SETTINGS)).game_id
    unseen = (await new_game(store, players=3, settings=SETTINGS, chat_id=-5)).game_id
    keeper = Notebooks(store)
    await keeper.sheet(game_id, 0)
    assert worked.sheets == [(0, len(await store.events(game_id)))]

    await _move(store, game_id, 0)
    keeper.warm(game_id)
    keeper.warm(unseen)
    await keeper.warmed()
    length = len(await store.events(game_id))
    assert worked.sheets[1:] == [(0, length)]  # seat 0 only: seats 1 and 2 never looked

    fresh = sheet_of(await store.load(game_id), await store.events(game_id), 0)
    assert await keeper.sheet(game_id, 0) == with_marks(fresh, {})
    assert len(worked.sheets) == 2  # ready: the look worked nothing out

    pauses = (cmd.PauseGame, cmd.ResumeGame)  # they tell no seat anything new
    for pause in (kind(actor=1, actor_is_admin=True) for kind in pauses):
        await store.execute(game_id, pause, NOW, planner)
        keeper.warm(game_id)
        await keeper.warmed()
    assert len(worked.sheets) == 2
    assert await keeper.sheet(game_id, 0) == with_marks(fresh, {})


async def test_a_change_while_warming_is_worked_out_once_more(store: Store, worked: Worked) -> None:
    game_id = (await new_game(store, players=3, settings=SETTINGS)).game_id
    keeper = Notebooks(store)
    await keeper.sheet(game_id, 0)
    worked.gate.clear()  # the next sheet waits in its thread while the game changes again
    worked.entered.clear()
    await _move(store, game_id, 1)  # seat 1 asks seat 2; seat 0 watches
    middle = len(await store.events(game_id))
    keeper.warm(game_id)
    assert await asyncio.to_thread(worked.entered.wait, 10)
    await _move(store, game_id, 3)  # seat 0 asks seat 1
    newest = len(await store.events(game_id))
    keeper.warm(game_id)
    worked.gate.set()
    await keeper.warmed()
    assert worked.sheets[1:] == [(0, middle), (0, newest)]
    await keeper.sheet(game_id, 0)
    assert len(worked.sheets) == 3


async def test_a_stopped_keeper_lets_its_warming_go_and_warms_no_more(
    store: Store, worked: Worked
) -> None:
    game_id = (await new_game(store, players=3, settings=SETTINGS)).game_id
    keeper = Notebooks(store)
    await keeper.sheet(game_id, 1)
    worked.gate.clear()
    worked.entered.clear()
    await _move(store, game_id, 2)  # seat 2 asks seat 0; seat 1 watches
    keeper.warm(game_id)
    assert await asyncio.to_thread(worked.entered.wait, 10)  # its thread is working
    keeper.stop()
    await asyncio.wait_for(keeper.warmed(), 5)  # let go while the thread still works
    assert len(worked.sheets) == 1
    worked.gate.set()
    await _move(store, game_id, 1)  # seat 1 asks seat 2
    keeper.warm(game_id)
    await keeper.sheet(game_id, 1)  # a look after the stop is worked out, not kept warm
    await _move(store, game_id, 4)  # seat 1 asks seat 2 again
    keeper.warm(game_id)
    await keeper.warmed()
    await asyncio.sleep(0.05)  # the let-go thread finishes its one sheet
    assert [length for seat, length in worked.sheets][-1] < len(await store.events(game_id))


async def test_looks_at_many_seats_leave_nothing_behind_but_the_kept_sheets(
    store: Store, worked: Worked
) -> None:
    """A bot that runs for months has seats of thousands of games looked at: besides the
    sheets it keeps (at most MAX_KEPT), nothing stays per seat once its look is over."""

    def locks() -> int:
        return sum(isinstance(o, asyncio.Lock) for o in gc.get_objects())

    keeper = Notebooks(store)
    games = [
        (await new_game(store, players=3, settings=SETTINGS, chat_id=-10 - n)).game_id
        for n in range(4)
    ]
    gc.collect()
    before = locks()
    looks = [keeper.sheet(game_id, seat) for game_id in games for seat in range(3)]
    again = [keeper.sheet(games[0], seat) for seat in range(3)]  # asked twice at once
    await asyncio.gather(*looks, *again)
    gc.collect()
    assert locks() == before
    assert len(worked.sheets) == 12  # each seat's sheet worked out once
