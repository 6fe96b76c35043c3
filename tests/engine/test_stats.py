"""A chat's records over finished games: counts a person would check by hand."""

from __future__ import annotations

from collections import Counter

from engine.events import EndReason
from engine.state import Phase
from engine.stats import chat_records
from simulation.randomplay import RandomGame
from simulation.tableplay import RandomTable


def test_records_count_every_finished_game_and_each_players_wins() -> None:
    games = [RandomGame(seed, 3 + seed % 4).play() for seed in range(12)]
    games += [RandomTable(seed, 3 + seed % 3).play() for seed in range(4)]
    assert all(g.phase is Phase.ENDED for g in games)
    records = chat_records(games)
    started = [g for g in games if g.envelope is not None]
    assert records.played == len(started)
    assert records.won + records.no_winner + records.ended_by_admin == records.played
    winners = Counter(g.players[g.winner].user for g in started if g.winner is not None)
    seats = Counter(p.user for g in started for p in g.players)
    assert {r.user: r.won for r in records.players} == {u: winners[u] for u in seats}
    assert {r.user: r.played for r in records.players} == dict(seats)
    assert records.players == tuple(
        sorted(records.players, key=lambda r: (-r.won, -r.won / r.played, r.user))
    )
    forum = [g.day for g in started if g.table is None]
    assert records.forum_days == sum(forum) / len(forum)
    assert records.suggestions == sum(
        len(g.table.suggestions) if g.table is not None else len(g.suggestions) for g in started
    )


def test_a_chat_with_no_finished_game_has_no_records() -> None:
    records = chat_records([])
    assert (records.played, records.won, records.players, records.quickest) == (0, 0, (), None)
    assert records.forum_days is None and records.table_turns is None


def test_the_quickest_win_is_the_shortest_won_game() -> None:
    games = [RandomGame(seed, 4).play() for seed in range(20)]
    won = [g for g in games if g.end_reason is EndReason.WON and g.winner is not None]
    records = chat_records(games)
    assert won, "some random games are won"
    assert records.quickest is not None
    assert records.quickest[0] == min(g.day for g in won)
