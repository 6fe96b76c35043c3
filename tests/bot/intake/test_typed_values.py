"""Numbers and durations people type (/extend, /settings, /log): strict, bounded, and every
refusal answered clearly, however long the number."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.payload import Span
from bot.settings_text import SettingInputError, parse_duration, parse_whole_number
from tests.support.harness import Party, bot_messages
from tests.support.play import open_and_start, state

HUGE = "9" * 5000  # over Python's int-string limit (4,300 digits)


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("2h", timedelta(hours=2)),
        ("90m", timedelta(minutes=90)),
        ("1.5h", timedelta(hours=1, minutes=30)),
        ("1,5ч", timedelta(hours=1, minutes=30)),
        ("1d12h", timedelta(days=1, hours=12)),
        ("1d 12h 30m", timedelta(days=1, hours=12, minutes=30)),
        ("2 hours", timedelta(hours=2)),
        ("2 часа", timedelta(hours=2)),
        ("3", timedelta(hours=3)),
        (" 2H ", timedelta(hours=2)),
        ("366d", timedelta(days=366)),
    ],
)
def test_durations_people_type_are_read(typed: str, expected: timedelta) -> None:
    assert parse_duration(typed) == expected


@pytest.mark.parametrize(
    "typed",
    ["1.5.5h", "2hh", "h", "-1h", "", "2h 3h", "1e3h", "2x", "2h!", "²h", "١h", "1..5h", "2 h m"],
)
def test_loose_durations_are_refused(typed: str) -> None:
    with pytest.raises(SettingInputError) as refused:
        parse_duration(typed)
    assert refused.value.reason == "duration"


@pytest.mark.parametrize("typed", [f"{HUGE}h", "367d", "1000000m", "9999999"])
def test_huge_durations_are_refused_as_too_large(typed: str) -> None:
    with pytest.raises(SettingInputError) as refused:
        parse_duration(typed)
    assert refused.value.reason == "too_large"
    assert refused.value.values == {"maximum": Span.of(timedelta(days=366))}


def test_whole_numbers_are_ascii_and_bounded() -> None:
    assert parse_whole_number("42") == 42
    assert parse_whole_number("0007") == 7
    assert parse_whole_number("-3", signed=True) == -3
    assert parse_whole_number("0" * 5000 + "5") == 5
    for typed, reason in [("-3", "number"), ("²", "number"), ("1 2", "number"), ("", "number")]:
        with pytest.raises(SettingInputError) as refused:
            parse_whole_number(typed)
        assert refused.value.reason == reason
    with pytest.raises(SettingInputError) as refused:
        parse_whole_number(HUGE)
    assert refused.value.reason == "too_large" and refused.value.values == {"maximum": 999_999}


async def _answer_to(table: Party, text: str) -> str:
    """What the bot replies in the group to `text` from alice (the admin)."""
    sent = await table.bot.say(table.alice, table.group, text)
    reply = bot_messages(table.group)[-1]
    assert reply.reply_to is not None and reply.reply_to.message_id == sent.message_id, text
    return reply.text


async def test_a_huge_log_day_gets_an_answer(table: Party) -> None:
    game_id = await open_and_start(table)
    for day in (HUGE, "0", "2", "²", "x"):
        answer = await _answer_to(table, f"/log {day}")
        assert "Give the number of a game day from 1 to 1" in answer, day
    assert "No suggestions on day 1" in await _answer_to(table, "/log 1")
    assert (await state(table, game_id)).day == 1


async def test_extend_takes_strict_durations_only(table: Party) -> None:
    game_id = await open_and_start(table)
    ends_at = (await state(table, game_id)).day_ends_at
    assert ends_at is not None
    for typed in ("1.5.5h", "2hh", "h", "-1h"):
        answer = await _answer_to(table, f"/extend {typed}")
        assert "Give a positive amount of time" in answer, typed
    for typed in (f"{HUGE}h", "400d"):
        answer = await _answer_to(table, f"/extend {typed}")
        assert "too long" in answer and "at most 366 days" in answer, typed
    assert (await state(table, game_id)).day_ends_at == ends_at
    await table.bot.say(table.alice, table.group, "/extend 1d12h")
    later = ends_at + timedelta(days=1, hours=12)
    assert (await state(table, game_id)).day_ends_at == later


async def test_settings_values_are_strict_and_bounded(table: Party) -> None:
    store = table.bot.services.store
    answer = await _answer_to(table, "/settings day_length 1.5.5h")
    assert "Give a time like 90m, 2h or 1d for “Day length”" in answer
    answer = await _answer_to(table, f"/settings day_length {HUGE}h")
    assert "too large for “Day length”: at most 366 days" in answer
    answer = await _answer_to(table, f"/settings suggestions_per_day {HUGE}")
    assert "too large" in answer and "at most 999999" in answer
    answer = await _answer_to(table, "/settings suggestions_per_day ²")
    assert "Give a whole number" in answer
    assert (await store.chats.get(table.group.id)).settings.day_length == timedelta(hours=24)
    assert "Saved" in await _answer_to(table, "/settings day_length 1d12h")
    assert (await store.chats.get(table.group.id)).settings.day_length == timedelta(hours=36)
    assert "Saved" in await _answer_to(table, "/settings answer_grace 90m")
    assert (await store.chats.get(table.group.id)).settings.answer_grace == timedelta(minutes=90)
