"""Every setting's typed value (`/settings <name> <value>`), whatever is typed: read, or
refused with the parser's own error (SettingInputError, answered from the catalog); a value
read is then accepted in every format or refused with the settings' own (InvalidSetting),
and shown in words; never a traceback (issue 39: the time zones' property, for all)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot import settings_text
from bot.settings_controls import offers, shown
from bot.settings_text import (
    COUNTS,
    DURATIONS,
    SETTING_NAMES,
    SWITCHES,
    SettingInputError,
    describe_setting,
    parse_setting,
    split_setting,
)
from engine import REGISTRY
from engine.errors import RuleError
from engine.formats import spec_for
from engine.settings import Settings
from locales import LANGUAGES, has, t

# What people have typed, or might: huge, negative, NaN and infinities, exponents, digits
# of other scripts, nothing, control characters, very long, odd units.
TROUBLE = [
    "9" * 400,
    "-1",
    "-999999",
    "nan",
    "NaN",
    "inf",
    "-inf",
    "1e999",
    "١٢",
    "𝟙",
    "１２",
    "",
    " ",
    "\x00",
    "1\x00h",
    "a" * 5000,
    "5 parsecs",
    "2h 3h",
    "+5",
    "99:99",
    "24:00",
    "0.0000001s",
    "999999d",
    "Europe/",
]
TYPED = st.one_of(
    st.text(max_size=40),
    st.sampled_from(TROUBLE),
    st.from_regex(r"\s*-?[0-9.,:]{1,12}\s*[^\W\d_]{0,8}\s*", fullmatch=True),
)
# A value of each kind people would type, that every format takes.
FITTING = {
    **dict.fromkeys(DURATIONS, "45m"),
    **dict.fromkeys(COUNTS, "2"),
    **dict.fromkeys(SWITCHES, "on"),
    "day_ends_at": "12:00",
    "timezone": "Berlin",
    "format": "classic",
    "notebook": "odds",
    "pack": "classic",
    "role_assignment": "chosen",
    "liar_window": "45s",
    "detective_delay": "45s",
    "max_players": "6",
    "truth_move_cards": "6",
}


def _read_or_refused(name: str, typed: str) -> None:
    try:
        value = parse_setting(name, typed)
    except SettingInputError as refused:
        assert has("en", f"input.{refused.reason}"), refused.reason  # the catalog answers
        return
    for key in REGISTRY.keys:
        try:
            changed = Settings(format=key).changed(**{name: value})
            spec_for(changed, REGISTRY.specs)
        except RuleError as refused:
            assert refused.code == "invalid_setting", refused
            continue
        assert describe_setting("en", name, shown(changed, name))


@pytest.mark.parametrize("name", SETTING_NAMES)
@settings(max_examples=15, deadline=None)
@given(typed=TYPED)
def test_any_typed_value_is_read_or_refused_with_the_settings_own_error(
    name: str, typed: str
) -> None:
    _read_or_refused(name, typed)


@pytest.mark.parametrize("name", SETTING_NAMES)
def test_the_known_troublemakers_are_read_or_refused_with_the_settings_own_error(
    name: str,
) -> None:
    for typed in TROUBLE:
        _read_or_refused(name, typed)


@pytest.mark.parametrize("name", SETTING_NAMES)
def test_every_setting_reads_a_fitting_value_as_its_own_type(name: str) -> None:
    """A setting added without a parser of its kind is noticed here (the Liars window was
    read as text, and every typed window crashed the handler)."""
    value = parse_setting(name, FITTING[name])
    changed = Settings().changed(**{name: value})
    assert getattr(changed, name) is not None
    if name in DURATIONS:
        assert isinstance(value, timedelta)
        assert "45" in describe_setting("en", name, shown(changed, name))


def test_a_long_line_is_split_without_trying_every_cut(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only as many words as the longest setting name are tried as one (a whole message of
    words took seconds before, every cut of it tried against every name)."""
    tried: list[str] = []
    plain = settings_text.plain_setting_name

    def counted(typed: str) -> str:
        tried.append(typed)
        return plain(typed)

    monkeypatch.setattr(settings_text, "plain_setting_name", counted)
    assert split_setting(["a"] * 2000, LANGUAGES) == ("a", " ".join(["a"] * 1999))
    assert max(len(typed.split()) for typed in tried) <= settings_text.longest_setting_name()
    words = t("en", "setting.min_players").split()
    assert split_setting([*words, "2"], ["en"]) == ("min_players", "2")


def test_a_player_count_left_to_the_format_is_shown_as_the_one_in_force() -> None:
    y2023 = Settings(format="y2023")
    assert (shown(y2023, "min_players"), shown(y2023, "max_players")) == (2, 6)
    assert [offer.value for offer in offers("min_players", y2023)] == [1, 3]
    assert shown(Settings(format="classic"), "min_players") == 3
    assert parse_setting("min_players", "off") is None  # back to the format's own
