"""`whodunit ratings`: a check that finds drifted ratings, and `--recompute` that mends them."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import delete, update

from bot.cli import main
from simulation.randomplay import START
from simulation.rated_games import archive, chat_games
from storage.achievement_models import AchievementTallyRecord
from storage.rating_models import RatingRecord
from storage.service import Store


async def _games_and_a_drift(url: str) -> None:
    store = await Store.open(url)
    try:
        for number, events in enumerate(chat_games(6, first_seed=1)):
            await archive(store, -100, events, START + timedelta(hours=number))
        await store.ratings.rate_pending()
        await store.db.run_write(
            lambda conn: conn.execute(update(RatingRecord).values(sigma=RatingRecord.sigma / 2))
        )
        await store.db.run_write(lambda conn: conn.execute(delete(AchievementTallyRecord)))
    finally:
        await store.close()


def test_the_check_finds_a_drift_and_the_recompute_mends_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path}/ratings.db"
    monkeypatch.setenv("WHODUNIT_DATABASE_URL", url)
    asyncio.run(_games_and_a_drift(url))
    assert main(["ratings"]) == 1
    assert main(["ratings", "--recompute"]) == 0
    assert main(["ratings"]) == 0
    said = capsys.readouterr().out.splitlines()  # two lines each: ratings, achievements
    assert not said[1].startswith("0 ")  # the tallies lost
    assert said[2].startswith("6 games folded;") and not said[2].startswith("6 games folded; 0")
    assert not said[3].startswith("0 ") and said[3].endswith(" corrected")
    assert said[4].endswith(" 0 differ from the games' logs")
    assert said[5] == "0 stored achievements and tallies differ from the games' logs"
