"""Settings (defaults in brackets in docs/rules-*.md) and their validation."""

from __future__ import annotations

import json
from datetime import time, timedelta
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import REGISTRY
from engine import commands as cmd
from engine.codec import from_dict, to_dict
from engine.errors import RuleError
from engine.settings import RoleAssignment, Settings, known_zone
from tests.support.formats import player_range
from tests.support.table import Table, expect_error


def test_defaults_are_the_rules_defaults() -> None:
    s = Settings()
    assert s.day_length == timedelta(hours=24)
    assert s.day_ends_at is None
    assert s.suggestions_per_day == 3
    assert s.max_per_target_per_day == 3
    assert s.max_received_per_day is None  # off
    assert s.extra_cards == 0
    assert s.role_assignment == "random"
    assert s.auto_no_refutation is True
    assert s.effective_answer_grace == timedelta(hours=2)
    assert s.missed_answer_penalty == 1
    assert s.accusation_window == timedelta(hours=24)
    assert s.eliminated_may_suggest is True
    assert s.effective_open_day_if_window_left == timedelta(hours=12)
    assert s.min_players is None and s.max_players is None  # the format's own range
    assert player_range(s) == (3, 10)
    assert s.pack == "classic"


def test_scaled_defaults_follow_the_day_length() -> None:
    s = Settings(day_length=timedelta(hours=48))
    assert s.effective_answer_grace == timedelta(hours=4)
    assert s.effective_open_day_if_window_left == timedelta(hours=24)
    fixed = Settings(answer_grace=timedelta(minutes=30), open_day_if_window_left=timedelta(0))
    assert fixed.effective_answer_grace == timedelta(minutes=30)
    assert fixed.effective_open_day_if_window_left == timedelta(0)


def _refused(setting: str, reason: str, value: Any) -> None:
    """Refused by the settings themselves, or by their format (the registry's check)."""
    with pytest.raises(RuleError) as caught:
        REGISTRY.format_for(Settings(**{setting: value}))
    assert caught.value.code == "invalid_setting"
    assert caught.value.values["setting"] == setting
    assert caught.value.values["reason"] == reason


def test_settings_validation_day_at_least_one_minute() -> None:
    _refused("day_length", "at_least", timedelta(seconds=59))
    _refused("day_length", "at_least", timedelta(0))
    assert Settings(day_length=timedelta(minutes=1)).day_length == timedelta(minutes=1)
    _refused("day_length", "at_most", timedelta(days=31))


@pytest.mark.parametrize(
    "setting", ["suggestions_per_day", "max_per_target_per_day", "max_received_per_day"]
)
def test_settings_validation_quotas_at_least_one(setting: str) -> None:
    _refused(setting, "at_least", 0)
    _refused(setting, "at_least", -1)
    changes: dict[str, Any] = {setting: 1}
    assert getattr(Settings(**changes), setting) == 1


def test_settings_validation_players() -> None:
    _refused("min_players", "at_least", 1)
    _refused("max_players", "at_least", 2)  # below the minimum of 3
    assert Settings(min_players=2, max_players=2).max_players == 2


@pytest.mark.parametrize(
    ("setting", "value"),
    [
        ("extra_cards", -1),
        ("missed_answer_penalty", -1),
        ("answer_grace", timedelta(seconds=-1)),
        ("open_day_if_window_left", timedelta(seconds=-1)),
        ("reminder_before", timedelta(seconds=-1)),
        ("accusation_window", timedelta(seconds=59)),
    ],
)
def test_settings_validation_no_negative_amounts(setting: str, value: Any) -> None:
    _refused(setting, "at_least", value)


def test_settings_validation_names_and_choices() -> None:
    _refused("timezone", "unknown_timezone", "Mars/Olympus")
    _refused("role_assignment", "one_of", "auction")
    _refused("pack", "unknown_pack", "nope")
    assert Settings(timezone="Europe/Berlin", day_ends_at=time(12, 0)).timezone


def test_zero_penalty_grace_and_extra_cards_are_allowed() -> None:
    s = Settings(missed_answer_penalty=0, answer_grace=timedelta(0), extra_cards=0)
    assert s.missed_answer_penalty == 0


def test_unknown_setting_refused() -> None:
    expect_error("unknown_setting", lambda: Settings().changed(colour="red"))
    table = Table(3, start=False)
    change = cmd.ChangeSettings(actor=1, changes={"colour": "red"})
    expect_error("unknown_setting", lambda: table.run(change))


def test_invalid_change_leaves_settings_alone() -> None:
    table = Table(3, start=False)
    change = cmd.ChangeSettings(actor=1, changes={"suggestions_per_day": 0})
    expect_error("invalid_setting", lambda: table.run(change))
    assert table.game.settings == Settings()


def test_settings_survive_storage() -> None:
    s = Settings(
        day_length=timedelta(hours=6),
        day_ends_at=time(21, 30),
        timezone="Europe/Minsk",
        max_received_per_day=4,
        answer_grace=timedelta(minutes=45),
    )
    assert from_dict(Settings, to_dict(s)) == s


def test_role_assignment_is_an_enum_and_its_plain_value_still_reads() -> None:
    """Settings stored (or typed) before the enum hold the plain string; it still works."""
    assert Settings().role_assignment is RoleAssignment.RANDOM
    plain: Any = "chosen"
    assert Settings(role_assignment=plain).role_assignment is RoleAssignment.CHOSEN
    stored = {**to_dict(Settings()), "role_assignment": "chosen"}
    assert (
        json.loads(json.dumps(to_dict(Settings(role_assignment=RoleAssignment.CHOSEN)))) == stored
    )
    assert from_dict(Settings, stored).role_assignment is RoleAssignment.CHOSEN
    changed = Settings().changed(role_assignment="chosen")
    assert changed.role_assignment is RoleAssignment.CHOSEN


@given(st.text(max_size=80))
def test_any_typed_zone_is_a_zone_or_refused_as_unknown(typed: str) -> None:
    """A zone value is checked by name: it never raises but the settings' own error."""
    try:
        Settings(timezone=typed)
    except RuleError as error:
        assert error.code == "invalid_setting" and error.values["reason"] == "unknown_timezone"
    else:
        assert known_zone(typed)


@pytest.mark.parametrize("typed", ["Europe/", "a" * 300, "posixrules", "localtime", "\x00", ""])
def test_names_that_are_no_zone_are_refused(typed: str) -> None:
    _refused("timezone", "unknown_timezone", typed)


def test_a_stored_zone_accepted_before_the_check_reads_as_a_zone() -> None:
    data = to_dict(Settings())
    assert from_dict(Settings, {**data, "timezone": "posixrules"}).timezone == "America/New_York"
    assert from_dict(Settings, {**data, "timezone": "Europe/"}).timezone == "UTC"
