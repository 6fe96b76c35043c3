"""A Telegram update delivered twice (a crash before the offset was confirmed) runs once."""

from __future__ import annotations

import asyncio

from engine import commands as cmd
from engine import events as ev
from engine.settings import Settings
from storage.service import Store
from storage.updates import KEEP, UpdateMark
from tests.support.stored_games import (
    CHAT,
    NOW,
    ROOMY,
    check_consistency,
    count_rows,
    new_game,
    planner,
    suggestion_for,
)


async def test_the_same_update_twice_runs_its_command_once(store: Store) -> None:
    game = await new_game(store, settings=ROOMY)
    suggestion = suggestion_for(game.state, actor=1, target=2)
    first = await store.execute(game.game_id, suggestion, NOW, planner, update=UpdateMark(501))
    assert [type(e) for e in first.events] == [ev.SuggestionMade]
    before = await count_rows(store)
    again = await store.execute(game.game_id, suggestion, NOW, planner, update=UpdateMark(501))
    # (delivered again after a restart)
    assert again.events == [] and again.state == first.state
    assert await count_rows(store) == before, "a repeated update wrote something"
    other = await store.execute(game.game_id, suggestion, NOW, planner, update=UpdateMark(502))
    # (another update with the same command is a new suggestion)
    assert [type(e) for e in other.events] == [ev.SuggestionMade]
    assert len(other.state.suggestions) == 2
    assert await store.updates.among([500, 501, 502, 503]) == {501, 502}
    await check_consistency(store, game.game_id)


async def test_a_repeated_update_that_opened_a_lobby_opens_none(store: Store) -> None:
    opening = cmd.OpenLobby(actor=1, seed=3, settings=Settings())
    first = await store.create_game(CHAT, 0, opening, NOW, planner, update=UpdateMark(7))
    before = await count_rows(store)
    again = await store.create_game(CHAT, 0, opening, NOW, planner, update=UpdateMark(7))
    assert again.game_id == first.game_id and again.events == []
    assert await count_rows(store) == before


async def test_each_command_of_one_update_counts_once(store: Store) -> None:
    """Steps: the second command of an update is not taken for a repeat of the first."""
    game = await new_game(store, start=False, players=2)
    update = UpdateMark(9)
    await store.execute(game.game_id, cmd.JoinLobby(actor=3), NOW, planner, update=update)
    joined = await store.execute(game.game_id, cmd.JoinLobby(actor=4), NOW, planner, update=update)
    assert [type(e) for e in joined.events] == [ev.PlayerJoined]
    before = await count_rows(store)
    update = UpdateMark(9)  # delivered again
    await store.execute(game.game_id, cmd.JoinLobby(actor=3), NOW, planner, update=update)
    await store.execute(game.game_id, cmd.JoinLobby(actor=4), NOW, planner, update=update)
    assert await count_rows(store) == before


async def test_the_same_update_at_once_in_two_tasks_runs_once(store: Store) -> None:
    game = await new_game(store, settings=ROOMY)
    suggestion = suggestion_for(game.state, actor=1, target=2)

    async def deliver() -> int:
        outcome = await store.execute(game.game_id, suggestion, NOW, planner, update=UpdateMark(77))
        return len(outcome.events)

    assert sorted(await asyncio.gather(deliver(), deliver())) == [0, 1]
    assert len((await store.load(game.game_id)).suggestions) == 1


async def test_old_handled_updates_are_pruned(store: Store) -> None:
    game = await new_game(store, start=False, players=2)
    await store.execute(game.game_id, cmd.JoinLobby(actor=3), NOW, planner, update=UpdateMark(11))
    assert await store.updates.prune(NOW + KEEP / 2) == 0
    assert await store.updates.among([11]) == {11}
    assert await store.updates.prune(NOW + KEEP * 2) == 1
    assert await store.updates.among([11]) == set()
