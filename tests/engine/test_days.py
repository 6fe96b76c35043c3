"""Game days (docs/rules-forum.md, Days and suggestions): day length, quotas, the limits."""

from __future__ import annotations

from datetime import timedelta

from engine import events as ev
from engine.settings import Settings
from tests.support.table import DAY, HOUR, T0, Table, expect_error


def test_day_lasts_day_length_and_the_next_opens_at_its_end() -> None:
    table = Table(3)
    assert table.game.day_ends_at == T0 + DAY
    table.wait(DAY - timedelta(seconds=1))
    assert table.game.day == 1 and table.game.day_open
    events = table.wait(timedelta(seconds=1))
    silent = [ev.PlayerIdle] * 3  # nobody moved all day
    assert [type(e) for e in events] == [*silent, ev.DayEnded, ev.DayOpened]
    assert table.game.day == 2
    assert table.game.day_ends_at == T0 + 2 * DAY


def test_day_length_setting() -> None:
    table = Table(3, Settings(day_length=timedelta(hours=6)))
    assert table.game.day_ends_at == T0 + 6 * HOUR
    table.wait(DAY)
    assert table.game.day == 5


def test_suggestion_quota_three_per_day() -> None:
    table = Table(4)
    for target in (2, 3, 4):
        table.suggest(1, target)
    assert table.quota(1) == 0
    error = expect_error("no_suggestions_left", lambda: table.suggest(1, 2))
    assert error.values == {"resets_at": T0 + DAY}
    assert table.quota(2) == 3  # quotas are per player


def test_suggestions_per_day_setting() -> None:
    table = Table(3, Settings(suggestions_per_day=1))
    table.suggest(1, 2)
    expect_error("no_suggestions_left", lambda: table.suggest(1, 3))


def test_quota_is_renewed_each_day() -> None:
    table = Table(3)
    for _ in range(3):
        table.suggest(1, 2)
    assert table.quota(1) == 0
    table.end_day()
    assert table.quota(1) == 3
    table.suggest(1, 2)
    assert table.quota(1) == 2


def test_unused_suggestions_do_not_carry_over() -> None:
    table = Table(3)
    table.end_day()
    assert table.quota(1) == 3


def test_max_per_target_per_day() -> None:
    table = Table(3, Settings(suggestions_per_day=5))
    for _ in range(3):
        table.suggest(1, 2)
    error = expect_error("target_limit_reached", lambda: table.suggest(1, 2))
    assert error.values == {"limit": 3, "resets_at": T0 + DAY}
    table.suggest(1, 3)  # another target is fine
    table.end_day()
    table.suggest(1, 2)  # and a new day resets it


def test_max_per_target_per_day_setting() -> None:
    table = Table(3, Settings(max_per_target_per_day=1))
    table.suggest(1, 2)
    expect_error("target_limit_reached", lambda: table.suggest(1, 2))
    table.suggest(1, 3)


def test_max_received_per_day_off_by_default_and_enforced_when_set() -> None:
    table = Table(5)
    assert table.game.settings.max_received_per_day is None
    for user in (1, 3, 4, 5):
        for _ in range(3):
            table.suggest(user, 2)
    assert len(table.game.today()) == 12

    table = Table(4, Settings(max_received_per_day=2))
    table.suggest(1, 2)
    table.suggest(3, 2)
    error = expect_error("received_limit_reached", lambda: table.suggest(4, 2))
    assert error.values == {"limit": 2, "resets_at": T0 + DAY}
    table.suggest(4, 3)
    table.end_day()
    table.suggest(4, 2)


def test_suggestion_number_counts_the_suggesters_suggestions_that_day() -> None:
    table = Table(3)
    first = table.suggest(1, 2)
    other = table.suggest(2, 3)
    second = table.suggest(1, 3)
    assert (first.number, other.number, second.number) == (1, 1, 2)
    table.end_day()
    assert table.suggest(1, 2).number == 1
    assert [s.id for s in table.game.suggestions] == [1, 2, 3, 4]


def test_penalties_reduce_the_quota_of_the_next_day_only() -> None:
    table = Table(3, Settings(auto_no_refutation=False))
    table.suggest(1, 2)  # user 2 never answers: one missed answer
    table.end_day()
    assert table.quota(2) == 2
    table.end_day()
    assert table.quota(2) == 3
