"""Requests made outside the sender (a composer's edit in place) count in the same limiter."""

from __future__ import annotations

import time
from typing import Any

import pytest
from telegram.error import RetryAfter

from bot.delivery.limiter import Limits, Reservation, SlidingWindowLimiter
from bot.delivery.request_limiter import SENDER, RequestLimiter

PERSON, GROUP = 7, -100
WINDOW = 0.3  # one message per WINDOW seconds in a private chat, for a quick test


class Calls:
    """A stand-in for the HTTP call: records when it ran; can answer 429."""

    def __init__(self) -> None:
        self.at: list[float] = []
        self.fail: RetryAfter | None = None

    async def __call__(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        self.at.append(time.monotonic())
        if self.fail is not None:
            raise self.fail
        return {"ok": True}


def _setup() -> tuple[SlidingWindowLimiter, RequestLimiter, Calls]:
    limiter = SlidingWindowLimiter(Limits(private_window=WINDOW), time.monotonic)
    return limiter, RequestLimiter(limiter, time.monotonic), Calls()


async def _call(hook: RequestLimiter, calls: Calls, endpoint: str, chat: int, mark: Any = None):  # type: ignore[no-untyped-def]
    data = {"chat_id": chat}
    return await hook.process_request(calls, (endpoint, data), {}, endpoint, data, mark)


async def test_an_edit_in_place_waits_for_the_slot_the_sender_took() -> None:
    limiter, hook, calls = _setup()
    taken = await limiter.reserve(PERSON)  # the sender just sent this person a message
    assert isinstance(taken, Reservation)
    start = time.monotonic()
    taken.stamp(start)
    await _call(hook, calls, "editMessageText", PERSON)
    assert calls.at[0] - start >= WINDOW, "the composer's edit came a window later"
    await _call(hook, calls, "getChatMember", PERSON)  # posts nothing: not held
    await _call(hook, calls, "sendMessage", PERSON, SENDER)  # the sender's own slot
    assert calls.at[2] - calls.at[0] < WINDOW / 2


async def test_a_429_on_a_direct_call_pauses_only_its_chat() -> None:
    limiter, hook, calls = _setup()
    calls.fail = RetryAfter(5)
    with pytest.raises(RetryAfter):
        await _call(hook, calls, "editMessageText", GROUP)
    waiting = await limiter.reserve(GROUP)
    assert isinstance(waiting, float) and waiting > 4
    assert isinstance(await limiter.reserve(PERSON), Reservation)
