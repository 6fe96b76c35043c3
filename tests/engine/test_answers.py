"""Answers (docs/rules-forum.md): refutation, no refutation, checks, the silent target."""

from __future__ import annotations

from datetime import timedelta
from functools import partial

from engine import events as ev
from engine.cards import CATEGORY_ORDER, Category
from engine.queries import player_view
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
    holds_all_categories,
    table_where,
)

STRICT = Settings(auto_no_refutation=False)


def test_refutation_shows_the_card_to_the_suggester_only() -> None:
    table = table_where(lambda t: bool(t.held(2, SUSPECT)))
    s = table.suggest(1, 2, table.held_by(2, SUSPECT))
    card = s.suspect
    table.refute(2, s.id, card)
    assert table.suggestion(s.id).answer is Answer.REFUTED
    assert player_view(table.game, 1).shown_to_me == ((s.id, card),)
    assert player_view(table.game, 3).shown_to_me == ()
    assert player_view(table.game, 2).shown_to_me == ()


def test_target_chooses_which_card_when_holding_several() -> None:
    table = table_where(lambda t: holds_all_categories(t, 2))
    s = table.suggest(1, 2, table.held_by(2))
    table.refute(2, s.id, s.place)  # not the first in order: the target's choice
    assert table.suggestion(s.id).card == s.place
    assert not table.suggestion(s.id).by_gm


def test_refuting_with_card_not_held_or_not_named_refused() -> None:
    table = table_where(lambda t: len(t.held(2, SUSPECT)) >= 2)
    s = table.suggest(1, 2, table.held_by(2, SUSPECT))
    unnamed = next(c for c in table.held(2, SUSPECT) if c != s.suspect)
    error = expect_error("card_not_named", lambda: table.refute(2, s.id, unnamed))
    assert error.values == {"card": unnamed}
    expect_error("card_not_held", lambda: table.refute(2, s.id, s.weapon))
    expect_error("card_not_held", lambda: table.refute(2, s.id, s.place))
    assert table.suggestion(s.id).answer is Answer.PENDING


def test_no_refutation_refused_when_holding_a_named_card() -> None:
    for category in CATEGORY_ORDER:

        def holding(t: Table, k: Category = category) -> bool:
            return bool(t.held(2, k))

        table = table_where(holding)
        s = table.suggest(1, 2, table.held_by(2, category))
        expect_error("must_refute", partial(table.no_refutation, 2, s.id))
        assert table.suggestion(s.id).answer is Answer.PENDING


def test_no_refutation_by_a_target_holding_none() -> None:
    table = Table(3, STRICT)
    s = table.suggest(1, 2)
    events = table.no_refutation(2, s.id)
    assert events == [ev.SuggestionNotRefuted(at=table.now, suggestion=s.id)]
    assert table.suggestion(s.id).answer is Answer.NOT_REFUTED


def test_only_the_addressed_player_answers() -> None:
    table = Table(3, STRICT)
    s = table.suggest(1, 2)
    expect_error("not_your_answer", lambda: table.no_refutation(3, s.id))
    expect_error("not_your_answer", lambda: table.no_refutation(1, s.id))
    expect_error("suggestion_not_found", lambda: table.no_refutation(2, 99))


def test_a_suggestion_is_answered_once() -> None:
    table = Table(3, STRICT)
    s = table.suggest(1, 2)
    table.no_refutation(2, s.id)
    expect_error("already_answered", lambda: table.no_refutation(2, s.id))


def test_auto_no_refutation_on_and_off() -> None:
    table = Table(3)
    assert table.game.settings.auto_no_refutation
    s = table.suggest(1, 2)
    answer = table.last(ev.SuggestionNotRefuted)
    assert (answer.suggestion, answer.automatic, answer.penalized) == (s.id, True, False)
    assert table.suggestion(s.id).answer is Answer.NOT_REFUTED
    held = table.suggest(1, 2, table.held_by(2))
    assert table.suggestion(held.id).answer is Answer.PENDING  # must refute: not automatic

    strict = Table(3, STRICT)
    s = strict.suggest(1, 2)
    assert strict.suggestion(s.id).answer is Answer.PENDING
    assert strict.of_type(ev.SuggestionNotRefuted) == []


def test_answers_are_given_while_waiting_for_a_window() -> None:
    table = Table(3, Settings(auto_no_refutation=False, accusation_window=timedelta(hours=30)))
    table.accuse(3, table.wrong())
    table.wait(DAY - HOUR)
    s = table.suggest(1, 2)  # due two hours later, after the day's end
    table.end_day()  # 6 h of window left: no day opens
    assert not table.game.day_open
    table.wait(HOUR / 2)
    table.no_refutation(2, s.id)
    assert table.suggestion(s.id).answer is Answer.NOT_REFUTED
    assert not table.suggestion(s.id).by_gm


def test_silent_target_answered_by_gm_suspect_then_weapon_then_place_with_penalty() -> None:
    table = table_where(lambda t: holds_all_categories(t, 2), settings=STRICT)
    cases = [
        table.held_by(2, SUSPECT, WEAPON, PLACE),
        table.held_by(2, WEAPON, PLACE),
        table.held_by(2, PLACE),
    ]
    made = [table.suggest(1, 2, cards) for cards in cases]
    table.suggest(3, 2)  # holds none: the GM posts "no refutation"
    table.end_day()
    answered = [table.suggestion(s.id) for s in made]
    assert [s.card for s in answered] == [cases[0][0], cases[1][1], cases[2][2]]
    assert all(s.by_gm and s.answer is Answer.REFUTED for s in answered)
    silent = table.game.suggestions[-1]
    assert silent.answer is Answer.NOT_REFUTED and silent.by_gm
    assert all(e.penalized for e in table.of_type(ev.SuggestionRefuted))
    assert table.last(ev.SuggestionNotRefuted).penalized
    assert table.quota(2) == 0  # four missed answers, three suggestions a day


def test_penalty_applies_to_next_day_that_opens_and_never_below_zero() -> None:
    table = Table(3, Settings(auto_no_refutation=False, missed_answer_penalty=2))
    table.suggest(1, 2)
    table.suggest(3, 2)
    assert table.quota(2) == 3  # not today
    table.end_day()
    assert table.player(2).penalty_today == 4
    assert table.quota(2) == 0  # 3 - 4, never below zero
    expect_error("no_suggestions_left", lambda: table.suggest(2, 1))
    table.end_day()
    assert table.quota(2) == 3  # the excess is not carried further


def test_penalty_per_missed_answer() -> None:
    table = Table(3, STRICT)
    for _ in range(2):
        table.suggest(1, 2)
    s = table.suggest(3, 2)
    table.no_refutation(2, s.id)  # answered in time: no penalty for this one
    table.end_day()
    assert table.quota(2) == 1
    assert table.quota(1) == table.quota(3) == 3


def test_missed_answer_penalty_setting_zero_means_none() -> None:
    table = Table(3, Settings(auto_no_refutation=False, missed_answer_penalty=0))
    s = table.suggest(1, 2)
    table.end_day()
    assert table.suggestion(s.id).by_gm
    assert not table.last(ev.SuggestionNotRefuted).penalized
    assert table.quota(2) == 3


def test_penalty_missed_after_a_new_day_opened_applies_to_the_day_after() -> None:
    table = Table(3, STRICT)
    table.wait(DAY - HOUR)
    s = table.suggest(1, 2)  # due 2 h later: one hour into day 2
    table.end_day()
    assert table.game.day == 2 and table.quota(2) == 3
    table.wait(HOUR)
    assert table.suggestion(s.id).by_gm
    assert table.quota(2) == 3  # day 2 had opened already
    table.end_day()
    assert table.quota(2) == 2  # the next day that opened


def test_penalty_waits_for_the_next_day_across_an_accusation_window() -> None:
    table = Table(4, Settings(auto_no_refutation=False, accusation_window=timedelta(hours=30)))
    table.suggest(1, 2)
    table.accuse(3, table.wrong())
    table.end_day()  # window has 6 h left: no day 2 yet
    assert not table.game.day_open
    assert table.player(2).pending_penalty == 1
    table.wait(6 * HOUR)  # window closes: day 2 opens
    assert table.game.day == 2
    assert table.quota(2) == 2


def test_answering_in_time_avoids_the_penalty() -> None:
    table = table_where(lambda t: bool(t.held(2, WEAPON)), settings=STRICT)
    s = table.suggest(1, 2, table.held_by(2, WEAPON))
    table.wait(DAY - timedelta(seconds=1))
    table.refute(2, s.id, s.weapon)
    table.end_day()
    assert table.quota(2) == 3
