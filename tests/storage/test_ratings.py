"""Ratings (storage.ratings): after many games of a chat, taken in as they end, a recompute
from the logs gives exactly the stored ratings, and the detectives' levels rank as their
strength; a game ended through the store is taken in beside the command that ended it; a
new season starts the chat's ratings afresh and keeps those across every chat
(storage.seasons)."""

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
from engine.events import Event, SeatReplaced
from engine.evolve import replay
from engine.standings import COMPUTERS, FORUM, PEOPLE, TABLE
from simulation.randomplay import START, RandomGame
from simulation.rated_games import archive, played
from storage.rating_math import EVERY_CHAT, RatingBook, RatingKey
from storage.rating_models import RatingRecord
from storage.ratings import Choices
from storage.service import Store
from tests.support.stored_games import CHAT

GAMES = 64  # half of them with detectives, 8 of those forum games (bench/ratings.py plays 1,000)
LEVELS = (Level.INSPECTOR, Level.SLEUTH, Level.NOVICE)  # strongest first


@cache
def game_log(seed: int, detectives_every: int) -> list[Event]:
    return played(seed, detectives_every)


def logs(count: int = GAMES) -> list[list[Event]]:
    """A chat's first `count` games, every other one a person with three detectives."""
    return [game_log(seed, 2) for seed in range(count)]


def people_logs(count: int) -> list[list[Event]]:
    """`count` people's games of three to six (no detectives: quick to play)."""
    return [game_log(seed, count + 1) for seed in range(1, count + 1)]


async def test_recomputed_ratings_equal_the_stored_ones_and_levels_rank_by_strength(
    store: Store,
) -> None:
    for number, events in enumerate(logs()):
        await archive(store, CHAT, events, START + timedelta(hours=number))
        if number % 10 == 9:  # games end now and then; each end takes in what ended
            await store.ratings.rate_pending()
    await store.ratings.rate_pending()  # the last game's end
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
    for number, events in enumerate(people_logs(12)):
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
    for number, events in enumerate(people_logs(24)):
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
    for number, events in enumerate(people_logs(16)):
        await archive(store, CHAT, events, START + timedelta(hours=number))
    counts = await asyncio.gather(*(store.ratings.rate_pending() for _ in range(4)))
    await store.ratings.rate_pending()  # a rater that found another busy left it the rest
    assert sum(counts) <= 16
    assert await store.ratings.stored() == await store.ratings.computed()
    assert (await store.ratings.recompute()).games == 16


async def test_a_season_starts_the_chats_ratings_afresh_and_keeps_those_across_chats(
    store: Store,
) -> None:
    """Twelve games in season 1 (six of them ended but not yet taken in when season 2
    begins: they count in season 1), then twelve after it (every other one in another
    chat, still in its season 1): the stored ratings are exactly a fold of the games with
    the chat's season 2 starting from nothing, and a recompute agrees."""
    other = CHAT - 1
    games = people_logs(24)
    expected = RatingBook()
    for number, events in enumerate(games):
        if number == 6:
            await store.ratings.rate_pending()  # the next six wait: the season takes them in
        if number == 12:
            assert await store.seasons.current(CHAT) == 1
            assert not await store.seasons.start(CHAT, 3, by=7, at=START)  # not the next one
            assert await store.seasons.start(CHAT, 2, by=7, at=START)
            assert await store.ratings.rate_pending() == 0
            first = await store.ratings.leaderboard(CHAT, TABLE, min_games=1)
            assert first
            assert not await store.seasons.start(CHAT, 2, by=7, at=START)  # a second press
            assert await store.ratings.leaderboard(CHAT, TABLE, season=2, min_games=1) == []
        chat = other if number >= 12 and number % 2 else CHAT
        season = 2 if chat == CHAT and number >= 12 else 1
        await archive(store, chat, events, START + timedelta(hours=number))
        game = replay(events)
        assert game is not None
        replaced = [e for e in events if isinstance(e, SeatReplaced)]
        expected.rate(chat, game, replaced, season)
    await store.ratings.rate_pending()
    stored = await store.ratings.stored()
    assert stored == expected.ratings
    assert (await store.seasons.current(CHAT), await store.seasons.current(other)) == (2, 1)
    assert {k.season for k in stored if k.chat_id == CHAT} == {1, 2}
    assert {k.season for k in stored if k.chat_id in (other, EVERY_CHAT)} == {1}
    assert await store.ratings.leaderboard(CHAT, TABLE, min_games=1) == first
    for key, rating in stored.items():  # across every chat: both seasons' games
        if key.chat_id == EVERY_CHAT:
            here = [
                stored.get(replace(key, chat_id=c, season=s))
                for c, s in ((CHAT, 1), (CHAT, 2), (other, 1))
            ]
            assert rating.games == sum(r.games for r in here if r is not None)
    assert await store.ratings.computed() == stored
    assert (await store.ratings.recompute()).differed == 0


async def test_a_read_looks_for_waiting_games_where_it_reads(store: Store) -> None:
    """A chat's leaderboard looks among that chat's games, a person's record among theirs,
    the leaderboard across chats among all; what it finds waiting is taken in, with every
    other game that waits (oldest first)."""
    ratings = store.ratings
    await archive(store, CHAT, people_logs(3)[0], START)  # people 1-4
    await archive(store, CHAT + 1, people_logs(3)[1], START + timedelta(hours=1))  # people 1-5
    assert await ratings.rate_pending(chat_id=CHAT + 2) == 0
    assert await ratings.rate_pending(user_id=7) == 0
    assert await ratings.stored() == {}
    assert await ratings.rate_pending(user_id=5) == 2
    await archive(store, CHAT + 1, people_logs(3)[2], START + timedelta(hours=2))  # people 1-6
    assert await ratings.rate_pending(chat_id=CHAT) == 0
    assert await ratings.rate_pending(user_id=7) == 0
    assert await ratings.rate_pending(chat_id=EVERY_CHAT) == 1
    assert await ratings.stored() == await ratings.computed()
