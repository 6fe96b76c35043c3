"""Accusations (docs/rules-forum.md): one per player, the window, judging, days around it."""

from __future__ import annotations

import json
from datetime import timedelta

from engine import REGISTRY
from engine import commands as cmd
from engine import events as ev
from engine.cards import CLASSIC
from engine.codec import event_to_dict
from engine.queries import reveal
from engine.settings import Settings
from engine.state import Phase
from tests.support.table import DAY, HOUR, T0, Table, expect_error


def test_accusation_names_three_cards_in_play() -> None:
    table = Table(3)
    _, weapon, place = table.envelope
    outside = next(c for c in CLASSIC.suspects if c not in table.game.deck)
    expect_error("card_not_in_play", lambda: table.accuse(1, (outside, weapon, place)))
    expect_error("card_wrong_category", lambda: table.accuse(1, (weapon, weapon, place)))
    assert table.game.accusations == ()


def test_only_players_who_are_still_in_accuse() -> None:
    table = Table(4)
    expect_error("not_a_player", lambda: table.accuse(42, table.envelope))
    table.run(cmd.LeaveGame(actor=4))
    expect_error("player_inactive", lambda: table.accuse(4, table.envelope))


def test_first_accusation_opens_window() -> None:
    table = Table(3)
    table.wait(5 * HOUR)
    events = table.accuse(2, table.wrong())
    assert [type(e) for e in events] == [ev.WindowOpened, ev.AccusationMade]
    opened = events[0]
    assert isinstance(opened, ev.WindowOpened)
    assert (opened.window, opened.closes_at) == (1, T0 + 5 * HOUR + DAY)
    assert table.game.window_open
    assert table.game.day_open  # the day goes on


def test_later_accusations_join_the_window_and_one_each_per_game() -> None:
    table = Table(4)
    table.accuse(2, table.wrong())
    table.wait(HOUR)
    events = table.accuse(3, table.envelope)
    assert [type(e) for e in events] == [ev.AccusationMade]
    assert {a.window for a in table.game.accusations} == {1}
    expect_error("already_accused", lambda: table.accuse(2, table.envelope))


def test_accusation_window_setting() -> None:
    table = Table(3, Settings(accusation_window=timedelta(hours=3)))
    table.accuse(1, table.wrong())
    assert table.game.window is not None
    assert table.game.window.closes_at == T0 + 3 * HOUR


def test_window_judges_in_order_of_arrival_first_correct_wins() -> None:
    table = Table(5)
    table.accuse(4, table.wrong())
    table.wait(HOUR)
    table.accuse(2, table.envelope)
    table.wait(HOUR)
    table.accuse(3, table.envelope)  # also right, but later
    events = table.wait(DAY)
    judged = table.of_type(ev.AccusationJudged, events)
    assert [(j.seat, j.correct) for j in judged] == [(3, False), (1, True)]
    ended = table.last(ev.GameEnded)
    assert (ended.reason, ended.winner) == ("won", 1)
    assert table.game.phase is Phase.ENDED
    assert table.player(4).eliminated and not table.player(2).eliminated


def test_win_reveals_envelope_every_accusation_and_every_hand() -> None:
    table = Table(3)
    table.accuse(1, table.wrong())
    table.accuse(3, table.envelope)
    expect_error("game_not_running", lambda: reveal(table.game))
    table.wait(DAY)
    shown = reveal(table.game)
    assert shown.envelope == table.envelope
    assert shown.winner == 2 and shown.reason == "won"
    assert [a.seat for a in shown.accusations] == [0, 2]
    assert shown.hands == tuple((p.seat, p.hand) for p in table.game.players)


def test_nothing_is_judged_before_the_window_closes() -> None:
    table = Table(3)
    table.accuse(1, table.envelope)
    table.wait(DAY - timedelta(seconds=1))
    assert table.game.phase is Phase.RUNNING
    assert table.of_type(ev.AccusationJudged) == []


def test_wrong_accuser_eliminated_may_still_suggest_by_setting() -> None:
    table = Table(3)
    table.accuse(1, table.wrong())
    table.wait(DAY)
    assert table.player(1).eliminated and table.game.phase is Phase.RUNNING
    expect_error("already_accused", lambda: table.accuse(1, table.envelope))
    table.suggest(1, 2)  # on by default

    table = Table(3, Settings(eliminated_may_suggest=False))
    table.accuse(1, table.wrong())
    table.wait(DAY)
    expect_error("eliminated_cannot_suggest", lambda: table.suggest(1, 2))
    assert table.quota(1) == 0
    table.suggest(2, 1)  # still a target


def test_eliminated_player_still_answers_suggestions() -> None:
    table = Table(3, Settings(auto_no_refutation=False))
    table.accuse(2, table.wrong())
    table.wait(DAY)
    s = table.suggest(1, 2)
    table.no_refutation(2, s.id)  # answers themselves ...
    late = table.suggest(3, 2)
    table.end_day()
    assert table.suggestion(late.id).by_gm  # ... or the GM does, at the deadline
    assert table.quota(2) == 2


def test_game_goes_on_after_a_window_without_winner_and_next_accusation_opens_new_one() -> None:
    table = Table(4)
    table.accuse(1, table.wrong())
    events = table.wait(DAY)
    assert ev.WindowClosed in [type(e) for e in events]
    assert table.game.phase is Phase.RUNNING and not table.game.window_open
    later = table.accuse(2, table.envelope)
    opened = table.of_type(ev.WindowOpened, later)
    assert [w.window for w in opened] == [2]
    table.wait(DAY)
    assert table.game.winner == 1


def test_game_ends_with_no_winner_when_nobody_can_accuse() -> None:
    table = Table(3)
    for user in (1, 2, 3):
        table.accuse(user, table.wrong())
    events = table.wait(DAY)
    ended = table.last(ev.GameEnded)
    assert (ended.reason, ended.winner) == ("no_winner", None)
    assert table.game.phase is Phase.ENDED
    assert not table.of_type(ev.DayOpened, events[events.index(ended) :])
    assert reveal(table.game).envelope == table.envelope


def test_last_accusers_can_be_players_who_left_out() -> None:
    table = Table(3)
    table.accuse(1, table.wrong())
    table.accuse(2, table.wrong())
    table.run(cmd.LeaveGame(actor=3))
    assert table.game.phase is Phase.RUNNING  # the window is still open
    table.wait(DAY)
    assert table.last(ev.GameEnded).reason == "no_winner"


def test_day_opens_during_window_only_if_enough_window_left() -> None:
    # open_day_if_window_left defaults to half a day: 12 h of a 24 h day.
    table = Table(3)
    table.wait(12 * HOUR)
    table.accuse(1, table.wrong())  # window closes at 36 h: 12 h left at the day end
    table.end_day()
    assert table.game.day == 2 and table.game.day_open

    table = Table(3)
    table.wait(12 * HOUR - timedelta(seconds=1))
    table.accuse(1, table.wrong())  # one second short of 12 h left at the day end
    table.end_day()
    assert table.game.day == 1 and not table.game.day_open
    expect_error("day_not_open", lambda: table.suggest(2, 3))
    table.accuse(2, table.wrong())  # accusations only


def test_open_day_if_window_left_setting() -> None:
    settings = Settings(open_day_if_window_left=timedelta(hours=2))
    table = Table(3, settings)
    table.wait(DAY - 22 * HOUR)
    table.accuse(1, table.wrong())  # closes at 26 h: 2 h left at the day end
    table.end_day()
    assert table.game.day_open
    table = Table(3, Settings(open_day_if_window_left=timedelta(0)))
    table.wait(DAY - timedelta(minutes=1))
    table.accuse(1, table.wrong())
    table.end_day()
    assert table.game.day_open


def test_next_day_opens_at_once_after_window_without_winner() -> None:
    table = Table(3)
    table.wait(2 * HOUR)
    table.accuse(1, table.wrong())  # closes at 26 h
    table.end_day()
    assert not table.game.day_open
    events = table.wait(2 * HOUR)
    assert [type(e) for e in events] == [
        ev.AccusationJudged,
        ev.WindowClosed,
        ev.DayOpened,
    ]
    assert table.game.day == 2
    assert table.game.day_opened_at == T0 + 26 * HOUR
    assert table.game.day_ends_at == T0 + 50 * HOUR


def test_window_closing_during_a_day_leaves_the_day_alone() -> None:
    table = Table(3, Settings(accusation_window=timedelta(hours=3)))
    table.accuse(1, table.wrong())
    events = table.wait(3 * HOUR)
    assert not table.of_type(ev.DayOpened, events)
    assert table.game.day == 1 and table.game.day_ends_at == T0 + DAY


def test_accusations_are_accepted_at_any_time_of_the_game() -> None:
    table = Table(3)
    table.end_day()
    table.wait(DAY - timedelta(seconds=1))  # last second of day 2
    table.accuse(3, table.envelope)
    assert table.game.accusations[0].window == 1


def test_end_reason_is_an_enum_and_an_event_stored_with_the_plain_string_decodes() -> None:
    table = Table(3)
    table.accuse(1, table.envelope)
    table.wait(DAY)
    assert table.last(ev.GameEnded).reason is ev.EndReason.WON
    assert table.game.end_reason is ev.EndReason.WON
    old = {"type": "GameEnded", "at": "2026-03-03T09:00:00+00:00", "reason": "no_winner"}
    decoded = REGISTRY.codec.event_from_dict(old)
    assert decoded == ev.GameEnded(at=T0 + DAY, reason=ev.EndReason.NO_WINNER)
    assert isinstance(decoded, ev.GameEnded) and decoded.reason is ev.EndReason.NO_WINNER
    assert json.loads(json.dumps(event_to_dict(decoded))) == {**old, "winner": None}
