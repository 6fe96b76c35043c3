"""Notebooks read the same in every worker: a seat's sheet follows from the stored log
(kept per process only as a cache keyed by the log's length) and the seat's own marks are
read from the database each time. Two processes' `Notebooks` on one database, each
caching, agree after every move and every mark, whichever wrote it."""

from __future__ import annotations

from pathlib import Path

from bot.notebook.keeper import Notebooks
from engine.settings import NotebookHelp, Settings
from engine.state import Answer
from storage.notebooks import OwnMark
from storage.service import Store
from tests.support.stored_games import NOW, new_game, planner
from tests.support.stored_games import answer_for as answer
from tests.support.stored_games import suggestion_for as suggestion


async def test_two_workers_notebooks_agree_after_each_others_moves_and_marks(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path}/bot.db"
    one = await Store.open(url)
    other = await Store.open(url, migrate=False)
    try:
        settings = Settings(notebook=NotebookHelp.ODDS, suggestions_per_day=10)
        game_id = (await new_game(one, players=3, settings=settings)).game_id
        notebooks = [Notebooks(one), Notebooks(other)]
        seats = range(3)
        for n, store in enumerate([one, other, one, other]):  # the workers take turns
            sheets = [[await keeper.sheet(game_id, seat) for seat in seats] for keeper in notebooks]
            assert sheets[0] == sheets[1]
            game = await store.load(game_id)
            actor, target = game.players[n % 3].user, game.players[(n + 1) % 3].user
            await store.execute(game_id, suggestion(game, actor, target, n), NOW, planner)
            game = await store.load(game_id)
            if game.suggestions[-1].answer is Answer.PENDING:  # else the GM answered for them
                await store.execute(game_id, answer(game, len(game.suggestions)), NOW, planner)
        game = await one.load(game_id)
        card = next(c for c in game.deck if c not in game.players[0].hand)
        await other.notebook_marks.put(game_id, 0, card, 1, OwnMark("maybe", "red ink"))
        first, second = [await keeper.sheet(game_id, 0) for keeper in notebooks]
        assert first == second and [card, 1, "maybe", "red ink"] in first["own"]
    finally:
        await one.close()
        await other.close()
