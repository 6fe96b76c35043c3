"""Ratings (storage.ratings): after many games of a chat, taken in as they end, a recompute
from the logs gives exactly the stored ratings, and the detectives' levels rank as their
strength; a game ended through the store is taken in beside the command that ended it."""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import replace
from datetime import timedelta
from functools import cache

from sqlalchemy import update

from engine import commands as cmd
from engine.computer import Level, detective_user
from engine.errors import RuleError
from engine.events import Event
from engine.standings import COMPUTERS, FORUM, PEOPLE, TABLE
from simulation.randomplay import START, RandomGame
from simulation.rated_games import archive, chat_games
from storage.rating_math import EVERY_CHAT, RatingKey
from storage.rating_models import RatingRecord
from storage.ratings import Choices
from storage.service import Store
from tests.support.stored_games import CHAT

GAMES = 160  # a fifth of them with detectives (bench/ratings.py plays 1,000)
LEVELS = (Level.INSPECTOR, Level.SLEUTH, Level.NOVICE)  # strongest first


@cache
def logs() -> tuple[list[Event], ...]:
    return tuple(chat_games(GAMES, detectives_every=4))


async def test_recomputed_ratings_equal_the_stored_ones_and_levels_rank_by_strength(
    store: Store,
) -> None:
    for number, events in enumerate(logs()):
        await archive(store, CHAT, events, START + timedelta(hours=number))
        if number % 10 == 9:  # games end now and then; each end takes in what ended
            await store.ratings.rate_pending()
    stored = await store.ratings.stored()
    assert stored == await store.ratings.computed()
    recomputed = await store.ratings.recompute()
    assert (recomputed.games, recomputed.differed) == (GAMES, 0)
    assert await store.ratings.stored() == stored
    for scope in (CHAT, EVERY_CHAT):
        for family in (FORUM, TABLE):
            keys = [RatingKey(scope, family, COMPUTERS, detective_user(0, lv)) for lv in LEVELS]
            measures = [stored[key].conservative for key in keys]
            assert measures == sorted(measures, reverse=True), (scope, family, measures)
            means = [stored[key].mu for key in keys]
            assert means == sorted(means, reverse=True), (scope, family, means)
    people = [r for k, r in stored.items() if k.pool == PEOPLE and k.chat_id == CHAT]
    assert people and all(r.games >= 1 for r in people)


async def test_a_recompute_corrects_a_stored_rating_that_drifted(store: Store) -> None:
    for number, events in enumerate(logs()[:12]):
        await archive(store, CHAT, events, START + timedelta(hours=number))
    await store.ratings.rate_pending()
    stored = await store.ratings.stored()
    await store.db.run_write(
        lambda conn: conn.execute(update(RatingRecord).values(mu=RatingRecord.mu + 1))
    )
    assert await store.ratings.stored() != stored
    assert (await store.ratings.recompute()).differed == len(stored)
    assert await store.ratings.stored() == stored


async def test_a_game_ended_through_the_store_is_taken_in_beside_its_last_command(
    store: Store,
) -> None:
    played = RandomGame(seed=6, players=4)
    played.play()
    assert played.game.winner is not None
    opening, at = played.commands[0]
    assert isinstance(opening, cmd.OpenLobby)
    outcome = await store.create_game(CHAT, 0, opening, at)
    for command, at in played.commands[1:]:
        with contextlib.suppress(RuleError):
            ending = await store.execute(outcome.game_id, command, at)
    assert ending.state.winner is not None
    assert store.taking_in  # the ending command did not wait for the ratings
    await store.ratings_taken_in()
    ratings = await store.ratings.stored()
    key = RatingKey(CHAT, FORUM, PEOPLE, played.game.players[played.game.winner].user)
    assert ratings[key].wins == 1
    assert {k.chat_id for k in ratings} == {CHAT, EVERY_CHAT}
    assert await store.ratings.rate_pending() == 0


async def test_a_hidden_person_is_on_no_leaderboard(store: Store) -> None:
    for number, events in enumerate(logs()[:40]):
        await archive(store, CHAT, events, START + timedelta(hours=number))
    await store.ratings.rate_pending()
    board = await store.ratings.leaderboard(CHAT, TABLE, min_games=1)
    assert board and all(user > 0 for user, _ in board)
    first = board[0][0]
    await store.ratings.set_choices(first, Choices(hidden=True))
    assert first not in [u for u, _ in await store.ratings.leaderboard(CHAT, TABLE, min_games=1)]
    assert await store.ratings.leaderboard(EVERY_CHAT, TABLE, min_games=1) == []
    second = board[1][0]
    await store.ratings.set_choices(second, Choices(everywhere=True))
    await store.ratings.set_choices(first, Choices(hidden=True, everywhere=True))
    everywhere = await store.ratings.leaderboard(EVERY_CHAT, TABLE, min_games=1)
    assert [u for u, _ in everywhere] == [second]
    assert await store.ratings.choices(first) == Choices(hidden=True, everywhere=True)
    assert replace(Choices(), hidden=True) == Choices(hidden=True)


async def test_raters_side_by_side_take_each_game_in_once(store: Store) -> None:
    for number, events in enumerate(logs()[:30]):
        await archive(store, CHAT, events, START + timedelta(hours=number))
    counts = await asyncio.gather(*(store.ratings.rate_pending() for _ in range(4)))
    await store.ratings.rate_pending()  # a rater that found another busy left it the rest
    assert sum(counts) <= 30
    assert await store.ratings.stored() == await store.ratings.computed()
    assert (await store.ratings.recompute()).games == 30


async def test_a_read_looks_for_waiting_games_where_it_reads(store: Store) -> None:
    """A chat's leaderboard looks among that chat's games, a person's record among theirs,
    the leaderboard across chats among all; what it finds waiting is taken in, with every
    other game that waits (oldest first)."""
    ratings = store.ratings
    await archive(store, CHAT, logs()[1], START)  # people 1-4
    await archive(store, CHAT + 1, logs()[2], START + timedelta(hours=1))  # people 1-5
    assert await ratings.rate_pending(chat_id=CHAT + 2) == 0
    assert await ratings.rate_pending(user_id=7) == 0
    assert await ratings.stored() == {}
    assert await ratings.rate_pending(user_id=5) == 2
    await archive(store, CHAT + 1, logs()[3], START + timedelta(hours=2))  # people 1-6
    assert await ratings.rate_pending(chat_id=CHAT) == 0
    assert await ratings.rate_pending(user_id=7) == 0
    assert await ratings.rate_pending(chat_id=EVERY_CHAT) == 1
    assert await ratings.stored() == await ratings.computed()
