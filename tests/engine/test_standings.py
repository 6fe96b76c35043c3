"""How a finished game's people finished (engine/standings.py): the winner first, those
still in tied, those who left tied below them, a wrong accusation last; which games count."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from engine.computer import Level, detective_user
from engine.events import EndReason, SeatReplaced
from engine.standings import (
    COMPUTERS,
    FORUM,
    PEOPLE,
    TABLE,
    Finish,
    family,
    pool,
    standings,
    subject,
)
from engine.state import Game
from simulation.randomplay import RandomGame
from simulation.tableplay import RandomTable

AT = datetime(2026, 3, 1, tzinfo=UTC)


def _won(seed: int = 6, players: int = 5) -> Game:
    game = RandomGame(seed, players).play()
    assert game.winner is not None
    return game


def _with(game: Game, seat: int, **changes: Any) -> Game:
    players = list(game.players)
    players[seat] = replace(players[seat], **changes)
    return replace(game, players=tuple(players))


def test_every_random_game_ranks_each_person_once_by_how_they_ended() -> None:
    games = [RandomGame(seed, 3 + seed % 4).play() for seed in range(16)]
    games += [RandomTable(seed, 3 + seed % 4).play() for seed in range(8)]
    for game in games:
        placed = standings(game)
        if game.end_reason is EndReason.ENDED:
            assert placed == ()
            continue
        assert sorted(s.user for s in placed) == sorted(p.user for p in game.players)
        assert [s.place for s in placed] == sorted(s.place for s in placed)
        by_user = {s.user: s for s in placed}
        for player in game.players:
            finish = by_user[player.user].finish
            if game.winner == player.seat:
                assert finish is Finish.WON
            elif player.eliminated:
                assert finish is Finish.WRONG and by_user[player.user].wrong == 1
            else:
                assert finish is (Finish.STAYED if player.active else Finish.LEFT)
        assert sum(s.finish is Finish.WON for s in placed) == (game.winner is not None)


def test_the_order_winner_stayed_left_wrong() -> None:
    game = _won()
    others = [p.seat for p in game.players if p.seat != game.winner]
    game = _with(game, others[0], eliminated=True, accused=True, active=True)
    game = _with(game, others[1], active=False, eliminated=False)
    for seat in others[2:]:
        game = _with(game, seat, active=True, eliminated=False)
    placed = standings(game)
    finish = {s.user: s.finish for s in placed}
    user = {p.seat: p.user for p in game.players}
    assert game.winner is not None
    assert placed[0].user == user[game.winner] and placed[0].finish is Finish.WON
    assert finish[user[others[0]]] is Finish.WRONG and placed[-1].finish is Finish.WRONG
    assert finish[user[others[1]]] is Finish.LEFT
    assert {finish[user[s]] for s in others[2:]} == {Finish.STAYED}
    assert Finish.WON < Finish.STAYED < Finish.LEFT < Finish.WRONG


def test_who_handed_over_a_seat_left_and_someone_in_two_seats_keeps_the_better() -> None:
    game = _won()
    loser = next(p for p in game.players if p.seat != game.winner)
    gone = SeatReplaced(at=AT, seat=loser.seat, old_user=99, new_user=loser.user)
    again = SeatReplaced(at=AT, seat=loser.seat, old_user=loser.user, new_user=98)
    finish = {s.user: s.finish for s in standings(game, [gone])}
    assert finish[99] is Finish.LEFT
    assert finish[loser.user] is not Finish.LEFT or not loser.active
    winner = game.players[game.winner or 0].user
    both = {s.user: s.finish for s in standings(game, [replace(again, old_user=winner)])}
    assert both[winner] is Finish.WON


def test_no_rating_for_an_admins_end_nor_under_three_people() -> None:
    game = _won()
    assert standings(replace(game, end_reason=EndReason.ENDED)) == ()
    assert standings(replace(game, players=game.players[:2], winner=None)) == ()
    assert standings(replace(game, envelope=None)) == ()
    assert len(standings(replace(game, players=game.players[:3], winner=None))) == 3


def test_family_pool_and_a_detectives_subject_is_its_level() -> None:
    forum, table = _won(), RandomTable(1, 4).play()
    assert (family(forum), family(table)) == (FORUM, TABLE)
    assert pool(forum) == PEOPLE
    assert pool(replace(forum, computers_played=True)) == COMPUTERS
    assert subject(detective_user(3, Level.SLEUTH)) == detective_user(0, Level.SLEUTH)
    assert subject(detective_user(0, Level.NOVICE)) == detective_user(0, Level.NOVICE)
    assert subject(12345) == 12345
