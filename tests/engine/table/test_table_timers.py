"""Table timers as deadlines: the turn timer, the refuter timer, players away, pauses."""

from __future__ import annotations

from datetime import timedelta

import pytest

from engine import commands as cmd
from engine import events as ev
from engine.deadlines import deadlines
from engine.errors import NotAway
from engine.table.queries import turn_options
from engine.table.state import MoveKind, Step, TurnEnd
from tests.support.classic import Classic, classic, suggest_to

TURN = classic().turn_time
REFUTE = classic().refute_time


def _game(players: int = 3, **settings: object) -> Classic:
    roles = ("scarlett", "mustard", "white", "green", "peacock", "plum")[:players]
    return Classic(players, roles=roles, settings=classic(**settings))


def test_the_turn_timer_skips_the_turn_with_an_event() -> None:
    game = _game()
    assert [d.key for d in deadlines(game.state)] == ["turn:1"]
    events = game.fire_due()
    assert events[0] == ev.TurnEnded(at=game.now, turn=1, seat=0, reason=TurnEnd.TIMED_OUT)
    assert game.current.role == "mustard" and game.table.due == game.now + TURN


def test_a_deadline_fired_twice_or_late_is_harmless() -> None:
    game = _game()
    stale = deadlines(game.state)[0].command
    game.fire_due()
    game.wait(timedelta(hours=1))
    assert game.run(stale) == []
    early = deadlines(game.state)[0].command
    game.now -= timedelta(hours=2)
    assert game.run(early) == []


def test_the_refuter_timer_lets_the_gm_show_the_first_match_suspect_weapon_place() -> None:
    game = _game()
    named = suggest_to(game, 1)
    assert [d.key for d in deadlines(game.state)] == ["refute:1"]  # the turn clock waits
    events = game.fire_due()
    shown = events[0]
    first = next(c for c in named if c in game.hand(2))
    assert shown == ev.CardShown(at=game.now, suggestion=1, seat=1, card=first, by_gm=True)
    assert game.table.step is Step.SUGGESTED


def test_the_turn_clock_stands_still_while_the_refuter_answers() -> None:
    game = _game()
    game.wait(timedelta(minutes=1))
    suggest_to(game, 1)
    game.fire_due()  # the refuter's two minutes
    assert game.table.due == game.now + (TURN - timedelta(minutes=1))


def test_missing_turns_in_a_row_marks_a_player_away() -> None:
    game = _game(away_after=2)
    game.fire_due()  # Scarlett misses one
    for _ in range(2):
        game.rolled(1)
        game.move(turn_options(game.game, game.current.user).squares[0])
        game.end()
    events = game.fire_due()  # and a second in a row
    assert ev.PlayerAway(at=game.now, seat=0) in events
    assert game.table.seats[0].away
    # Her token, still on her start square, leaves the corridor as a leaver's: no doorway
    # stays blocked while she is gone.
    out = [e for e in events if isinstance(e, ev.TokenMoved) and e.kind is MoveKind.OUT]
    assert [e.suspect for e in out] == ["scarlett"]
    assert isinstance(game.table.place_of("scarlett"), str)


def test_a_player_who_says_they_are_away_leaves_the_corridor_but_not_in_their_own_turn() -> None:
    game = _game()
    later = game.now + timedelta(hours=1)
    events = game.run(cmd.GoAway(actor=game.game.players[1].user, until=later))
    assert isinstance(game.table.place_of("mustard"), str)
    assert any(isinstance(e, ev.TokenMoved) and e.kind is MoveKind.OUT for e in events)
    events = game.run(cmd.GoAway(actor=game.current.user, until=later))  # Scarlett's turn
    assert not isinstance(game.table.place_of("scarlett"), str)
    assert not any(isinstance(e, ev.TokenMoved) for e in events)


def test_an_away_players_turns_are_skipped_at_once() -> None:
    game = _game(away_after=1)
    game.fire_due()
    assert game.table.seats[0].away
    for _ in range(2):
        game.rolled(1)
        game.move(turn_options(game.game, game.current.user).squares[0])
        events = game.end()
    assert any(isinstance(e, ev.TurnSkipped) and e.seat == 0 for e in events)
    assert game.current.role == "mustard"


def test_an_away_players_refutation_is_made_by_the_gm_at_once() -> None:
    game = _game(away_after=1)
    game.fire_due()
    named = suggest_to(game, 0)
    first = next(c for c in named if c in game.hand(1))
    assert game.table.suggestions[-1].card == first and game.table.suggestions[-1].by_gm


def test_an_away_player_who_comes_back_plays_again() -> None:
    game = _game(away_after=1)
    game.fire_due()
    game.run(cmd.ReturnToTable(actor=1))
    assert not game.table.seats[0].away
    with pytest.raises(NotAway):
        game.run(cmd.ReturnToTable(actor=1))
    for _ in range(2):
        game.rolled(1)
        game.move(turn_options(game.game, game.current.user).squares[0])
        game.end()
    assert game.current.role == "scarlett"


def test_when_everyone_is_away_the_game_waits_for_one_to_come_back() -> None:
    game = _game(away_after=1)
    for _ in range(3):
        game.fire_due()
    assert all(s.away for s in game.table.seats)
    assert game.table.due is None and deadlines(game.state) == []
    game.run(cmd.ReturnToTable(actor=3))
    assert game.current.role == "white" and game.table.due == game.now + TURN


def test_a_pause_moves_the_turn_and_refuter_timers_by_the_paused_time() -> None:
    game = _game()
    suggest_to(game, 1)
    assert game.table.pending is not None
    due = game.table.pending.due
    turn_due = game.table.due
    assert due is not None and turn_due is not None
    game.run(cmd.PauseGame(actor=9, actor_is_admin=True))
    assert deadlines(game.state) == []
    game.wait(timedelta(minutes=30))
    game.run(cmd.ResumeGame(actor=9, actor_is_admin=True))
    assert game.table.pending is not None
    assert game.table.pending.due == due + timedelta(minutes=30)
    assert game.table.due == turn_due + timedelta(minutes=30)


def test_a_player_who_leaves_on_their_turn_hands_it_on() -> None:
    game = _game()
    events = game.run(cmd.LeaveGame(actor=1))
    assert ev.TurnEnded(at=game.now, turn=1, seat=0, reason=TurnEnd.LEFT) in events
    assert game.current.role == "mustard"


def test_a_refuter_who_leaves_is_answered_for_by_the_gm() -> None:
    game = _game()
    suggest_to(game, 1)
    game.run(cmd.RemovePlayer(actor=9, actor_is_admin=True, player=2))
    assert game.table.suggestions[-1].by_gm and game.table.step is Step.SUGGESTED


def test_a_turn_timer_excused_for_the_bots_downtime_gives_a_fresh_timer() -> None:
    game = _game()
    game.rolled(3)
    game.wait(TURN + timedelta(hours=2))  # the bot was down past the turn's end
    events = game.run(cmd.TurnDeadline(turn=1, excused=True))
    assert events == [ev.TurnTimerRenewed(at=game.now, turn=1, seat=0, due=game.now + TURN)]
    assert game.table.turn == 1 and game.table.step is Step.MOVE  # the turn goes on
    assert game.table.due == game.now + TURN
    assert [d.at for d in deadlines(game.state)] == [game.now + TURN]
    assert game.table.seats[0].missed == 0  # no penalty
    assert game.run(cmd.TurnDeadline(turn=1, excused=True)) == []  # fired twice: nothing


def test_a_refuter_timer_excused_for_the_bots_downtime_gives_a_fresh_timer() -> None:
    game = _game()
    suggest_to(game, 1)
    game.wait(REFUTE + timedelta(hours=2))
    events = game.run(cmd.RefuteDeadline(turn=1, excused=True))
    assert events == [
        ev.RefuteTimerRenewed(at=game.now, suggestion=1, seat=1, due=game.now + REFUTE)
    ]
    pending = game.table.pending
    assert pending is not None and pending.refuter == 1 and pending.card is None
    assert [d.key for d in deadlines(game.state)] == ["refute:1"]
    assert deadlines(game.state)[0].at == game.now + REFUTE
    assert game.run(cmd.RefuteDeadline(turn=1, excused=True)) == []
    game.fire_due()  # the fresh timer runs out with the bot up: the GM shows
    assert game.table.suggestions[-1].by_gm


def test_a_player_who_says_they_are_away_is_skipped_until_back() -> None:
    game = _game()
    until = game.now + timedelta(hours=2)
    events = game.run(cmd.GoAway(actor=2, until=until))  # Mustard's player, not on turn
    assert events[0] == ev.PlayerAway(at=game.now, seat=1, until=until)
    assert [type(e) for e in events] == [ev.PlayerAway, ev.TokenMoved]  # off the corridor
    game.rolled(1)
    game.move(turn_options(game.game, game.current.user).squares[0])
    events = game.end()
    assert any(isinstance(e, ev.TurnSkipped) and e.seat == 1 for e in events)
    assert game.current.role == "white"
    game.run(cmd.ComeBack(actor=2))
    assert not game.table.seats[1].away
