"""Making a suggestion (docs/rules-forum.md): who, to whom, which cards, its answer deadline."""

from __future__ import annotations

from datetime import timedelta

from engine import commands as cmd
from engine import events as ev
from engine.cards import CLASSIC
from engine.settings import Settings
from engine.state import Answer
from tests.support.table import (
    DAY,
    HOUR,
    SUSPECT,
    T0,
    Table,
    expect_error,
)


def test_suggestion_names_one_suspect_weapon_and_place_to_another_player() -> None:
    table = Table(3)
    cards = table.not_held_by(2)
    s = table.suggest(1, 2, cards)
    made = table.last(ev.SuggestionMade)
    assert (made.suggester, made.target, made.day, made.number) == (0, 1, 1, 1)
    assert (made.suspect, made.weapon, made.place) == cards == s.cards


def test_bluffing_with_own_cards_is_allowed() -> None:
    table = Table(3)
    own = table.held_by(1)
    table.suggest(1, 2, own)
    assert table.game.suggestions[-1].cards == own


def test_suggestion_cards_must_be_in_play() -> None:
    table = Table(3)
    missing = next(c for c in CLASSIC.suspects if c not in table.in_play(SUSPECT))
    s, w, p = table.not_held_by(2)
    error = expect_error("card_not_in_play", lambda: table.suggest(1, 2, (missing, w, p)))
    assert error.values == {"card": missing}
    expect_error("card_not_in_play", lambda: table.suggest(1, 2, (s, w, "atlantis")))


def test_suggestion_cards_must_be_suspect_weapon_place_in_that_order() -> None:
    table = Table(3)
    s, w, p = table.not_held_by(2)
    error = expect_error("card_wrong_category", lambda: table.suggest(1, 2, (w, s, p)))
    assert error.values == {"card": w, "category": "suspect"}
    expect_error("card_wrong_category", lambda: table.suggest(1, 2, (s, w, s)))


def test_cannot_suggest_to_oneself() -> None:
    table = Table(3)
    expect_error("cannot_target_self", lambda: table.suggest(1, 1, table.not_held_by(2)))


def test_target_must_be_a_player_of_the_game() -> None:
    table = Table(3)
    expect_error("target_not_in_game", lambda: table.suggest(1, 42, table.not_held_by(2)))


def test_only_players_suggest() -> None:
    table = Table(3)
    expect_error("not_a_player", lambda: table.suggest(42, 2))


def test_suggestions_only_during_an_open_day() -> None:
    table = Table(3, Settings(accusation_window=timedelta(hours=30)))
    table.accuse(1, table.wrong())
    table.end_day()  # 6 h of window left: less than half a day, no day opens
    assert not table.game.day_open
    error = expect_error("day_not_open", lambda: table.suggest(2, 3))
    assert error.values == {"window_closes_at": T0 + timedelta(hours=30)}


def test_players_who_left_and_eliminated_players_are_valid_targets() -> None:
    table = Table(4)
    table.run(cmd.LeaveGame(actor=3))
    table.accuse(4, table.wrong())
    table.wait(DAY)  # the window closes: 4 is eliminated
    assert table.player(4).eliminated
    table.suggest(1, 3)
    table.suggest(1, 4)
    assert [s.target for s in table.game.today()] == [2, 3]


def test_answer_deadline_is_the_end_of_the_day_when_later_than_grace() -> None:
    table = Table(3, Settings(auto_no_refutation=False))
    table.wait(HOUR)
    s = table.suggest(1, 2)
    assert s.answer_due == T0 + DAY


def test_answer_grace_extends_deadline_past_day_end() -> None:
    table = Table(3, Settings(auto_no_refutation=False))
    table.wait(DAY - timedelta(minutes=30))  # half an hour before the end
    s = table.suggest(1, 2)
    assert s.answer_due == table.now + 2 * HOUR  # default grace: 2 h for a 24 h day
    table.end_day()
    assert table.suggestion(s.id).answer is Answer.PENDING  # still within grace
    table.wait(2 * HOUR)
    assert table.suggestion(s.id).by_gm


def test_answer_grace_scales_with_day_length() -> None:
    table = Table(3, Settings(day_length=timedelta(hours=6), auto_no_refutation=False))
    table.wait(6 * HOUR - timedelta(minutes=10))
    s = table.suggest(1, 2)
    assert s.answer_due == table.now + timedelta(minutes=30)  # 6 h / 12


def test_answer_grace_setting() -> None:
    settings = Settings(answer_grace=timedelta(hours=5), auto_no_refutation=False)
    table = Table(3, settings)
    table.wait(DAY - HOUR)
    assert table.suggest(1, 2).answer_due == table.now + 5 * HOUR
    table = Table(3, Settings(answer_grace=timedelta(0), auto_no_refutation=False))
    table.wait(DAY - timedelta(seconds=1))
    assert table.suggest(1, 2).answer_due == T0 + DAY


def test_day_is_over_at_its_end_even_before_the_clock_fires() -> None:
    table = Table(3)
    table.now = T0 + DAY - timedelta(seconds=1)
    table.suggest(1, 2)
    table.now = T0 + DAY  # the day-end deadline has not run yet
    error = expect_error("day_not_open", lambda: table.suggest(1, 3))
    assert error.values == {"next_day_at": T0 + DAY}, "the next day opens at once"
    expect_error("day_not_open", lambda: table.admin(cmd.ExtendDay, by=HOUR))
    table.run(cmd.EndDay(day=1))
    assert table.suggest(1, 3).day == 2


def test_a_repeated_press_of_the_same_suggestion_is_refused_not_made_twice() -> None:
    from engine import commands as cmd
    from tests.support.table import Table, expect_error

    table = Table(3)
    suspect, weapon, place = table.not_held_by(2)
    first = cmd.MakeSuggestion(
        actor=1, target=2, suspect=suspect, weapon=weapon, place=place, number=1
    )
    table.run(first)
    expect_error("suggestion_already_made", lambda: table.run(first))
    assert len(table.game.suggestions) == 1
    table.run(
        cmd.MakeSuggestion(actor=1, target=2, suspect=suspect, weapon=weapon, place=place, number=2)
    )
    assert [s.number for s in table.game.suggestions] == [1, 2]
