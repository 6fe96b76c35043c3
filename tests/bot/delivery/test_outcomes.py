"""What Telegram's errors say of a delivery attempt (bot.delivery.outcomes.of_error)."""

from __future__ import annotations

from datetime import timedelta

import httpx
from telegram.error import (
    BadRequest,
    ChatMigrated,
    Forbidden,
    NetworkError,
    RetryAfter,
    TimedOut,
)

from bot.delivery.outcomes import (
    AnswerLost,
    Failed,
    Migrated,
    Refused,
    Unreachable,
    Wait,
    of_error,
)


def _timed_out(cause: BaseException) -> TimedOut:
    error = TimedOut()
    error.__cause__ = cause
    return error


def test_a_429_is_a_wait_that_pauses_the_chat() -> None:
    assert of_error(RetryAfter(7), private=False) == Wait(7.0, "429", paused=True)
    assert of_error(RetryAfter(timedelta(seconds=3)), private=True) == Wait(3.0, "429", True)


def test_a_403_or_a_persons_missing_chat_is_unreachable() -> None:
    forbidden = Forbidden("Forbidden: bot was blocked by the user")
    assert of_error(forbidden, private=True) == Unreachable(forbidden)
    missing = BadRequest("Bad Request: chat not found")
    assert of_error(missing, private=True) == Unreachable(missing)
    assert of_error(missing, private=False) == Refused(missing.message)


def test_a_group_that_became_a_supergroup_is_followed() -> None:
    assert of_error(ChatMigrated(-1009), private=False) == Migrated(-1009)


def test_a_timeout_after_the_request_went_out_is_a_lost_answer_of_its_part() -> None:
    lost = _timed_out(httpx.ReadTimeout("read"))
    assert of_error(lost, private=False, part=2, sent=(5, 6)) == AnswerLost(2, (5, 6))
    assert isinstance(of_error(lost, private=False), Failed), "an edit is simply retried"


def test_a_timeout_before_the_request_went_out_is_retried() -> None:
    never = _timed_out(httpx.ConnectTimeout("connect"))
    assert isinstance(of_error(never, private=False, part=0), Failed)
    assert isinstance(of_error(NetworkError("reset"), private=False, part=0), Failed)
