"""The bot's computer detectives read on from their last think: each game and seat keeps
its reading beside the notebooks (bot/notebook/keeper.py), one think at a time per seat,
while other seats and games think meanwhile."""

from __future__ import annotations

import asyncio

from engine.detectives import Reading
from tests.support.harness import Party


async def test_each_game_and_seat_keeps_its_reading(table: Party) -> None:
    notebooks = table.bot.services.notebooks
    async with notebooks.reading(1, 0) as first:
        assert isinstance(first, Reading) and first.seat == 0
    async with notebooks.reading(1, 0) as again:
        assert again is first
    async with notebooks.reading(1, 1) as seat, notebooks.reading(2, 0) as game:
        assert len({id(first), id(seat), id(game)}) == 3


async def test_a_second_think_of_a_seat_waits_for_the_first_and_no_other_does(
    table: Party,
) -> None:
    notebooks = table.bot.services.notebooks
    entered: list[tuple[int, int]] = []

    async def think(game_id: int, seat: int) -> None:
        async with notebooks.reading(game_id, seat):
            entered.append((game_id, seat))

    async with notebooks.reading(1, 0):
        waiting = [asyncio.create_task(think(*key)) for key in [(1, 0), (1, 1), (2, 0)]]
        for _ in range(5):
            await asyncio.sleep(0)
        assert entered == [(1, 1), (2, 0)]
    await asyncio.gather(*waiting)
    assert entered == [(1, 1), (2, 0), (1, 0)]
