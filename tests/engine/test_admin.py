"""Leaving, removal, replacement, voiding, pause, extension, ending (docs/rules-forum.md)."""

from __future__ import annotations

from datetime import timedelta

from engine import commands as cmd
from engine import events as ev
from engine.queries import player_view
from engine.settings import Settings
from engine.state import Answer, Phase
from tests.support.table import (
    DAY,
    HOUR,
    PLACE,
    SUSPECT,
    T0,
    WEAPON,
    Table,
    expect_error,
    holds_all_categories,
    table_where,
)

STRICT = Settings(auto_no_refutation=False)


def test_leaving_player_keeps_cards_and_gm_answers_at_once_without_penalty() -> None:
    table = table_where(lambda t: holds_all_categories(t, 2), settings=STRICT)
    owed = table.suggest(1, 2, table.held_by(2, WEAPON, SUSPECT))
    hand = table.hand(2)
    events = table.run(cmd.LeaveGame(actor=2))
    assert isinstance(events[0], ev.PlayerLeft) and not events[0].removed
    answer = table.suggestion(owed.id)
    assert answer.by_gm and answer.card == owed.suspect  # suspect first
    assert not table.last(ev.SuggestionRefuted).penalized
    assert table.hand(2) == hand and not table.player(2).active
    later = table.suggest(3, 2, table.held_by(2, PLACE))  # still a target: answered at once
    assert table.suggestion(later.id).card == later.place
    assert table.suggestion(later.id).by_gm
    table.end_day()
    assert table.player(2).pending_penalty == 0 and table.player(2).penalty_today == 0


def test_player_who_left_cannot_play_on() -> None:
    table = Table(4)
    table.run(cmd.LeaveGame(actor=2))
    expect_error("player_inactive", lambda: table.suggest(2, 1))
    expect_error("player_inactive", lambda: table.run(cmd.LeaveGame(actor=2)))
    expect_error("not_a_player", lambda: table.run(cmd.LeaveGame(actor=42)))
    assert table.quota(2) == 0


def test_removal_by_admin() -> None:
    table = Table(4, STRICT)
    s = table.suggest(1, 3)
    expect_error("admin_only", lambda: table.run(cmd.RemovePlayer(actor=1, player=3)))
    events = table.admin(cmd.RemovePlayer, player=3)
    assert isinstance(events[0], ev.PlayerLeft) and events[0].removed
    assert table.player(3).removed and not table.player(3).active
    assert table.suggestion(s.id).by_gm
    expect_error("seat_not_active", lambda: table.admin(cmd.RemovePlayer, player=3))
    expect_error("target_not_in_game", lambda: table.admin(cmd.RemovePlayer, player=42))


def test_game_ends_when_everyone_who_could_accuse_has_left() -> None:
    table = Table(3)
    table.run(cmd.LeaveGame(actor=1))
    table.admin(cmd.RemovePlayer, player=2)
    assert table.game.phase is Phase.RUNNING
    table.run(cmd.LeaveGame(actor=3))
    assert table.last(ev.GameEnded).reason == "no_winner"


def test_replacement_hands_seat_to_newcomer() -> None:
    table = table_where(lambda t: bool(t.held(2, SUSPECT)), settings=STRICT)
    seen = table.suggest(2, 3, table.held_by(3))
    table.refute(3, seen.id, next(c for c in seen.cards if c in table.hand(3)))
    owed = table.suggest(1, 2, table.held_by(2, SUSPECT))
    seat, hand, role = table.player(2).seat, table.hand(2), table.player(2).role
    expect_error("admin_only", lambda: table.run(cmd.ReplacePlayer(actor=1, player=2, newcomer=7)))
    events = table.admin(cmd.ReplacePlayer, player=2, newcomer=7)
    assert events == [ev.SeatReplaced(at=table.now, seat=seat, old_user=2, new_user=7)]
    view = player_view(table.game, 7)
    assert (view.seat, view.hand, view.role) == (seat, hand, role)
    assert [s for s, _ in view.shown_to_me] == [seen.id]  # the seat's history
    assert [s.id for s in view.owes] == [owed.id]
    expect_error("not_a_player", lambda: player_view(table.game, 2))
    table.refute(7, owed.id, owed.suspect)  # the newcomer answers


def test_replacement_of_a_seat_that_left_brings_it_back() -> None:
    table = Table(4)
    table.run(cmd.LeaveGame(actor=2))
    table.admin(cmd.ReplacePlayer, player=2, newcomer=8)
    assert table.player(8).active
    table.suggest(8, 1)


def test_replacement_newcomer_must_be_new_to_the_game() -> None:
    table = Table(4)
    expect_error("already_in_game", lambda: table.admin(cmd.ReplacePlayer, player=2, newcomer=3))
    expect_error(
        "target_not_in_game", lambda: table.admin(cmd.ReplacePlayer, player=42, newcomer=8)
    )


def test_void_suggestion_refunds_same_day_and_answered_stays_answered() -> None:
    table = Table(3, STRICT)
    first = table.suggest(1, 2)
    table.suggest(1, 2)
    answered = table.suggest(1, 3)
    table.no_refutation(3, answered.id)
    assert table.quota(1) == 0
    expect_error("admin_only", lambda: table.run(cmd.VoidSuggestion(actor=2, suggestion=1)))
    events = table.admin(cmd.VoidSuggestion, suggestion=first.id)
    assert events == [ev.SuggestionVoided(at=table.now, suggestion=first.id, refunded=True)]
    assert table.suggestion(first.id).answer is Answer.VOIDED
    assert table.quota(1) == 1  # the quota comes back the same day
    expect_error("suggestion_voided", lambda: table.no_refutation(2, first.id))
    expect_error("suggestion_voided", lambda: table.admin(cmd.VoidSuggestion, suggestion=1))
    expect_error("already_answered", lambda: table.admin(cmd.VoidSuggestion, suggestion=3))
    assert table.suggestion(answered.id).answer is Answer.NOT_REFUTED
    expect_error("suggestion_not_found", lambda: table.admin(cmd.VoidSuggestion, suggestion=9))
    table.end_day()
    assert table.quota(2) == 2  # the voided answer was never owed: one missed, not two


def test_voided_suggestion_frees_its_target_limit_slot() -> None:
    strict = Table(3, Settings(auto_no_refutation=False, max_per_target_per_day=1))
    s = strict.suggest(1, 2)
    strict.admin(cmd.VoidSuggestion, suggestion=s.id)
    again = strict.suggest(1, 2)
    assert again.number == 2  # numbers count what was posted that day


def test_void_on_a_later_day_does_not_refund() -> None:
    table = Table(3, STRICT)
    table.wait(DAY - HOUR)
    s = table.suggest(1, 2)  # grace runs into day 2
    table.end_day()
    events = table.admin(cmd.VoidSuggestion, suggestion=s.id)
    assert events == [ev.SuggestionVoided(at=table.now, suggestion=s.id, refunded=False)]
    assert table.quota(1) == 3
    table.wait(2 * HOUR)  # the answer deadline passes: nothing is owed, no penalty
    table.end_day()
    assert table.quota(2) == 3


def test_pause_stops_the_clock_deadlines_move() -> None:
    table = Table(3, STRICT)
    table.wait(DAY - HOUR)
    s = table.suggest(1, 2)
    table.accuse(3, table.wrong())
    window_closes = T0 + 2 * DAY - HOUR
    expect_error("admin_only", lambda: table.run(cmd.PauseGame(actor=1)))
    table.admin(cmd.PauseGame)
    assert table.game.paused
    table.wait(5 * HOUR)  # nothing fires while paused
    assert table.game.day == 1 and table.suggestion(s.id).answer is Answer.PENDING
    expect_error("game_paused", lambda: table.suggest(3, 1))
    expect_error("game_paused", lambda: table.no_refutation(2, s.id))
    expect_error("game_paused", lambda: table.admin(cmd.PauseGame))
    table.admin(cmd.ResumeGame)
    assert table.game.day_ends_at == T0 + DAY + 5 * HOUR
    assert table.suggestion(s.id).answer_due == T0 + DAY + 6 * HOUR
    assert table.game.window is not None
    assert table.game.window.closes_at == window_closes + 5 * HOUR
    expect_error("game_not_paused", lambda: table.admin(cmd.ResumeGame))


def test_resume_by_admin_only() -> None:
    table = Table(3)
    table.admin(cmd.PauseGame)
    expect_error("admin_only", lambda: table.run(cmd.ResumeGame(actor=1)))


def test_extend_day_moves_day_end_and_answer_deadlines() -> None:
    table = Table(3, STRICT)
    early = table.suggest(1, 2)
    table.wait(DAY - HOUR)
    late = table.suggest(3, 2)  # due at 25 h by grace
    expect_error("admin_only", lambda: table.run(cmd.ExtendDay(actor=1, by=HOUR)))
    table.admin(cmd.ExtendDay, by=3 * HOUR)
    assert table.game.day_ends_at == T0 + DAY + 3 * HOUR
    assert table.suggestion(early.id).answer_due == T0 + DAY + 3 * HOUR
    assert table.suggestion(late.id).answer_due == T0 + DAY + 3 * HOUR
    table.wait(3 * HOUR)
    assert table.game.day == 1  # the old end did not fire
    table.wait(HOUR)
    assert table.game.day == 2
    assert table.game.day_ends_at == T0 + 2 * DAY + 3 * HOUR


def test_extension_must_be_positive_and_during_an_open_day() -> None:
    table = Table(3)
    expect_error("invalid_extension", lambda: table.admin(cmd.ExtendDay, by=timedelta(0)))
    expect_error("invalid_extension", lambda: table.admin(cmd.ExtendDay, by=-HOUR))
    table.wait(2 * HOUR)
    table.accuse(1, table.wrong())
    table.end_day()
    expect_error("day_not_open", lambda: table.admin(cmd.ExtendDay, by=HOUR))


def test_end_game_by_admin() -> None:
    table = Table(3)
    expect_error("admin_only", lambda: table.run(cmd.EndGame(actor=1)))
    table.admin(cmd.EndGame)
    ended = table.last(ev.GameEnded)
    assert (ended.reason, ended.winner) == ("ended", None)
    assert table.game.phase is Phase.ENDED and not table.game.day_open
    expect_error("game_not_running", lambda: table.admin(cmd.EndGame))
    expect_error("game_not_running", lambda: table.suggest(1, 2))


def test_end_game_while_paused_ends_it() -> None:
    table = Table(3)
    table.admin(cmd.PauseGame)
    table.admin(cmd.EndGame)
    assert table.game.phase is Phase.ENDED
    assert not table.game.paused
    expect_error("game_not_running", lambda: table.admin(cmd.ResumeGame))
