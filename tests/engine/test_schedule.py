"""The day schedule (docs/rules-forum.md, Days and suggestions), changes, deadline commands."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from itertools import pairwise
from zoneinfo import ZoneInfo

from engine import commands as cmd
from engine import events as ev
from engine.deadlines import deadlines
from engine.decide import decide
from engine.settings import Settings
from tests.support.table import DAY, HOUR, T0, Table, expect_error

BERLIN = ZoneInfo("Europe/Berlin")
NOON_BERLIN = Settings(day_ends_at=time(12, 0), timezone="Europe/Berlin")


def _day_ends(table: Table, days: int) -> list[datetime]:
    ends = []
    for _ in range(days):
        assert table.game.day_ends_at is not None
        ends.append(table.game.day_ends_at)
        table.end_day()
    return ends


def test_day_ends_at_fixed_local_time_across_dst_spring() -> None:
    # Clocks go forward in Berlin on 2026-03-29 at 02:00 CET.
    start = datetime(2026, 3, 27, 11, 0, tzinfo=BERLIN)
    ends = _day_ends(Table(3, NOON_BERLIN, now=start), 4)
    local = [e.astimezone(BERLIN) for e in ends]
    assert [(e.day, e.hour, e.minute) for e in local] == [
        (28, 12, 0),
        (29, 12, 0),
        (30, 12, 0),
        (31, 12, 0),
    ]
    lengths = [b - a for a, b in pairwise(ends)]
    assert lengths == [23 * HOUR, DAY, DAY]
    assert [e.astimezone(UTC).hour for e in ends] == [11, 10, 10, 10]


def test_day_ends_at_fixed_local_time_across_dst_autumn() -> None:
    # Clocks go back in Berlin on 2026-10-25 at 03:00 CEST.
    start = datetime(2026, 10, 23, 11, 0, tzinfo=BERLIN)
    ends = _day_ends(Table(3, NOON_BERLIN, now=start), 4)
    local = [e.astimezone(BERLIN) for e in ends]
    assert [(e.day, e.hour, e.minute) for e in local] == [
        (24, 12, 0),
        (25, 12, 0),
        (26, 12, 0),
        (27, 12, 0),
    ]
    lengths = [b - a for a, b in pairwise(ends)]
    assert lengths == [25 * HOUR, DAY, DAY]


def test_day_ending_at_a_time_skipped_by_dst_ends_an_hour_later() -> None:
    settings = Settings(day_ends_at=time(2, 30), timezone="Europe/Berlin")
    start = datetime(2026, 3, 28, 2, 30, tzinfo=BERLIN)
    table = Table(3, settings, now=start)
    assert table.game.day_ends_at == datetime(2026, 3, 29, 3, 30, tzinfo=BERLIN)


def test_fixed_day_end_leaves_at_least_half_a_day() -> None:
    start = datetime(2026, 5, 4, 11, 59, tzinfo=BERLIN)  # a minute before the hour
    table = Table(3, NOON_BERLIN, now=start)
    assert table.game.day_ends_at == datetime(2026, 5, 5, 12, 0, tzinfo=BERLIN)
    start = datetime(2026, 5, 4, 23, 0, tzinfo=BERLIN)  # thirteen hours before
    table = Table(3, NOON_BERLIN, now=start)
    assert table.game.day_ends_at == datetime(2026, 5, 5, 12, 0, tzinfo=BERLIN)


def test_schedule_change_applies_from_next_day() -> None:
    table = Table(3)
    table.wait(5 * HOUR)
    change = {"day_length": timedelta(hours=12)}
    table.admin(cmd.ChangeSettings, changes=change)
    assert table.game.day_ends_at == T0 + DAY  # today unchanged
    assert table.game.settings.day_length == DAY
    table.admin(cmd.ChangeSettings, changes={"day_ends_at": time(21, 0)})  # both apply
    table.end_day()
    assert table.game.settings.day_length == timedelta(hours=12)
    assert table.game.settings.day_ends_at == time(21, 0)
    assert table.game.day_ends_at == datetime(2026, 3, 3, 21, 0, tzinfo=UTC)
    assert table.game.pending_settings is None


def test_only_the_schedule_changes_in_a_running_game_by_admins() -> None:
    table = Table(3)
    error = expect_error(
        "setting_locked",
        lambda: table.admin(cmd.ChangeSettings, changes={"timezone": "UTC", "extra_cards": 1}),
    )
    assert error.values == {"setting": "extra_cards"}
    by_creator = cmd.ChangeSettings(actor=1, changes={"day_length": HOUR})
    expect_error("admin_only", lambda: table.run(by_creator))
    bad_zone = {"timezone": "Mars/Olympus"}
    expect_error("invalid_setting", lambda: table.admin(cmd.ChangeSettings, changes=bad_zone))
    table.admin(cmd.EndGame)
    late = {"day_length": HOUR}
    expect_error("game_not_running", lambda: table.admin(cmd.ChangeSettings, changes=late))


def test_stale_or_early_deadline_commands_are_noops() -> None:
    table = Table(3, Settings(auto_no_refutation=False))
    s = table.suggest(1, 2)
    assert decide(None, cmd.EndDay(day=1), T0) == []
    assert table.run(cmd.EndDay(day=1)) == []  # early
    assert table.run(cmd.EndDay(day=2)) == []  # a day not open
    assert table.run(cmd.AnswerDeadline(suggestion=s.id)) == []  # early
    assert table.run(cmd.AnswerDeadline(suggestion=99)) == []  # unknown
    assert table.run(cmd.SendReminder(day=1)) == []  # early
    table.accuse(3, table.wrong())
    assert table.run(cmd.CloseWindow(window=1)) == []  # early
    assert table.run(cmd.CloseWindow(window=2)) == []  # not this window
    table.admin(cmd.PauseGame)
    table.now += 2 * DAY
    for paused in (cmd.EndDay(day=1), cmd.CloseWindow(window=1), cmd.SendReminder(day=1)):
        assert table.run(paused) == []
    table.admin(cmd.ResumeGame)
    table.wait(DAY)
    assert table.game.day == 2
    for stale in (cmd.EndDay(day=1), cmd.AnswerDeadline(suggestion=s.id)):
        assert table.run(stale) == []  # fired twice or late
    assert table.run(cmd.CloseWindow(window=1)) == []
    assert table.run(cmd.SendReminder(day=1)) == []
    table.admin(cmd.EndGame)
    assert table.run(cmd.EndDay(day=2)) == [] and deadlines(table.game) == []


def test_deadline_that_fires_late_acts_as_at_its_time() -> None:
    table = Table(3, Settings(auto_no_refutation=False))
    s = table.suggest(1, 2)
    table.now = T0 + DAY + 5 * HOUR  # the bot was down at the day's end
    events = table.run(cmd.EndDay(day=1))
    silent = [ev.PlayerIdle] * 2  # the target and the third player made no move
    kinds = [ev.SuggestionNotRefuted, *silent, ev.DayEnded, ev.DayOpened]
    assert [type(e) for e in events] == kinds
    assert table.suggestion(s.id).by_gm
    assert table.game.day == 2


def test_an_answer_due_as_its_day_ends_runs_the_days_end() -> None:
    """Whichever of the two deadlines runs first, the day ends in one command (its post
    tells the GM's answer); an answer due after the day's end is answered alone."""
    table = Table(3, Settings(auto_no_refutation=False))
    s = table.suggest(1, 2)
    table.now = T0 + DAY - HOUR
    late = table.suggest(3, 2)
    table.now = T0 + DAY
    events = table.run(cmd.AnswerDeadline(suggestion=s.id))
    kinds = [ev.SuggestionNotRefuted, ev.PlayerIdle, ev.DayEnded, ev.DayOpened]
    assert [type(e) for e in events] == kinds  # the target silent all day, the others not
    assert table.suggestion(s.id).by_gm and table.game.day == 2
    assert table.run(cmd.EndDay(day=1)) == []  # ran already
    assert table.run(cmd.AnswerDeadline(suggestion=late.id)) == []  # early
    table.now = late.answer_due
    (answered,) = table.run(cmd.AnswerDeadline(suggestion=late.id))
    assert isinstance(answered, ev.SuggestionNotRefuted) and answered.by_gm


def test_deadlines_list_day_end_reminder_answers_and_window() -> None:
    table = Table(3, Settings(auto_no_refutation=False))
    s = table.suggest(1, 2)
    table.accuse(1, table.wrong())
    found = {d.key: (d.at, d.command) for d in deadlines(table.game)}
    assert found == {
        "day:1": (T0 + DAY, cmd.EndDay(day=1)),
        "remind:1": (T0 + 21 * HOUR, cmd.SendReminder(day=1)),
        f"answer:{s.id}": (T0 + DAY, cmd.AnswerDeadline(suggestion=s.id)),
        "window:1": (T0 + DAY, cmd.CloseWindow(window=1)),
    }
    table.admin(cmd.PauseGame)
    assert deadlines(table.game) == []


def test_reminder_before_the_day_ends_goes_out_once() -> None:
    table = Table(3, Settings(reminder_before=2 * HOUR))
    events = table.wait(DAY - HOUR)
    assert events == [ev.ReminderSent(at=T0 + 22 * HOUR, day=1)]
    assert table.run(cmd.SendReminder(day=1)) == []
