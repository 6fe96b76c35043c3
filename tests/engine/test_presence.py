"""Away players, standing answers and silent days (engine/presence.py): the GM answers for
an away player at once with no penalty, within the game's away days; a standing answer is
what the GM shows; a whole day with no move counts silent, once, and not while away."""

from __future__ import annotations

from engine import commands as cmd
from engine import events as ev
from engine.settings import Settings
from engine.state import Answer
from tests.support.table import (
    DAY,
    HOUR,
    PLACE,
    SUSPECT,
    WEAPON,
    Table,
    expect_error,
    table_where,
)


def _away(table: Table, user: int, days: float) -> list[ev.Event]:
    return table.run(cmd.GoAway(actor=user, until=table.now + days * DAY))


def test_an_away_player_is_answered_for_at_once_and_takes_no_penalty() -> None:
    table = table_where(lambda t: bool(t.held(2, SUSPECT)))
    owed = table.suggest(1, 2, table.held_by(2, SUSPECT))
    _away(table, 2, 1)
    answered = table.game.suggestion(owed.id)
    assert answered is not None and answered.answer is Answer.REFUTED and answered.by_gm
    assert not answered.penalized
    later = table.suggest(3, 2, table.held_by(2, SUSPECT))
    now = table.game.suggestion(later.id)
    assert now is not None and now.answer is Answer.REFUTED and now.by_gm
    table.end_day()
    assert table.player(2).penalty_today == 0
    assert table.game.day == 2


def test_away_time_ends_by_itself_and_the_player_is_asked_again() -> None:
    table = table_where(lambda t: bool(t.held(2, SUSPECT)))
    _away(table, 2, 0.5)
    table.wait(13 * HOUR)
    s = table.suggest(1, 2, table.held_by(2, SUSPECT))
    assert table.game.suggestion(s.id).answer is Answer.PENDING  # type: ignore[union-attr]


def test_the_away_limit_refuses_a_fourth_day_and_coming_back_early_gives_days_back() -> None:
    table = Table(3)
    _away(table, 1, 2)
    table.wait(HOUR)
    table.run(cmd.ComeBack(actor=1))  # back within the first day: the second given back
    assert table.player(1).away_days == 1
    expect_error("away_limit", lambda: _away(table, 1, 3))
    _away(table, 1, 2)
    assert table.player(1).away_days == 3
    table.wait(3 * DAY)
    error = expect_error("away_limit", lambda: _away(table, 1, 1))
    assert error.values == {"limit": 3, "left": 0}
    assert not table.player(1).away_at(table.now)


def test_away_refusals_change_nothing() -> None:
    table = Table(3, Settings(away_days=0))
    expect_error("away_not_allowed", lambda: _away(table, 1, 1))
    table = Table(3)
    expect_error("away_too_short", lambda: _away(table, 1, 0))
    expect_error("not_away", lambda: table.run(cmd.ComeBack(actor=1)))
    expect_error("not_a_player", lambda: _away(table, 7, 1))
    assert not any(isinstance(e, ev.WentAway) for e in table.events)


def test_a_game_may_forbid_asking_away_players() -> None:
    table = Table(3, Settings(away_asked=False))
    _away(table, 2, 1)
    error = expect_error("target_away", lambda: table.suggest(1, 2))
    assert error.values == {"until": table.player(2).away_until}


def test_a_penalty_owed_waits_while_the_player_is_away() -> None:
    table = table_where(lambda t: bool(t.held(2, SUSPECT)))
    ends = table.game.day_ends_at
    assert ends is not None
    table.wait_until(ends - HOUR)
    table.suggest(1, 2, table.held_by(2, SUSPECT))  # answer due an hour into day 2
    table.end_day()
    table.wait(2 * HOUR)  # 2 stayed silent: a penalty for the next day
    assert table.player(2).pending_penalty == 1
    _away(table, 2, 1.5)
    table.end_day()  # day 3 opens while 2 is away: the penalty waits
    assert (table.player(2).penalty_today, table.player(2).pending_penalty) == (0, 1)
    table.end_day()  # day 4: 2 is back
    assert (table.player(2).penalty_today, table.player(2).pending_penalty) == (1, 0)


def test_the_standing_answer_is_what_the_gm_shows() -> None:
    table = table_where(lambda t: bool(t.held(2, SUSPECT)) and bool(t.held(2, PLACE)))
    cards = table.held_by(2, SUSPECT, PLACE)
    table.run(cmd.SetStandingAnswer(actor=2, order=(cards[2],)))
    s = table.suggest(1, 2, cards)
    table.end_day()
    shown = table.last(ev.SuggestionRefuted)
    assert (shown.suggestion, shown.card, shown.by_gm, shown.standing) == (
        s.id,
        cards[2],
        True,
        True,
    )


def test_without_a_standing_answer_the_gm_keeps_its_order() -> None:
    table = table_where(lambda t: bool(t.held(2, SUSPECT)) and bool(t.held(2, WEAPON)))
    cards = table.held_by(2, SUSPECT, WEAPON)
    table.suggest(1, 2, cards)
    table.end_day()
    shown = table.last(ev.SuggestionRefuted)
    assert (shown.card, shown.standing) == (cards[0], False)


def test_a_standing_answer_names_only_the_players_own_cards() -> None:
    table = Table(3)
    foreign = table.hand(3)[0]
    error = expect_error(
        "standing_not_held", lambda: table.run(cmd.SetStandingAnswer(actor=2, order=(foreign,)))
    )
    assert error.values == {"card": foreign}
    assert table.player(2).standing == ()


def test_a_silent_day_is_counted_once_and_a_move_clears_the_count() -> None:
    table = table_where(lambda t: bool(t.held(2, SUSPECT)))
    table.suggest(1, 2, table.not_held_by(2))  # answered at once, by nobody's move
    events = table.end_day()
    idle = {e.seat: e.days for e in events if isinstance(e, ev.PlayerIdle)}
    assert idle == {1: 1, 2: 1}  # 1 made the suggestion (seat 0); 2 and 3 made no move
    events = table.end_day()
    idle = {e.seat: e.days for e in events if isinstance(e, ev.PlayerIdle)}
    assert idle == {0: 1, 1: 2, 2: 2}
    table.suggest(2, 3)
    assert table.player(2).idle_days == 0


def test_away_days_and_days_the_bot_slept_through_count_nobody_silent() -> None:
    table = Table(3)
    _away(table, 2, 1.5)
    ends = table.game.day_ends_at
    assert ends is not None
    table.now = ends + HOUR
    events = table.run(cmd.EndDay(day=1, excused=True))
    assert not [e for e in events if isinstance(e, ev.PlayerIdle)]
    events = table.end_day()
    assert {e.seat for e in events if isinstance(e, ev.PlayerIdle)} == {0, 2}
