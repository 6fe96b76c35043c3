"""What one attempt to deliver an outbox row came to: a value the sender alone records.

An attempt (a text part, an edit, a photo: `texts`, `edits`, `photos`) makes its request
and answers one of these; it writes nothing. The sender marks the row sent, defers it,
parks it, or schedules its retry, from the value (`bot.delivery.sender`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

import httpx
from telegram.error import (
    BadRequest,
    ChatMigrated,
    Forbidden,
    RetryAfter,
    TelegramError,
    TimedOut,
)

from bot.http import NotSent

# Timeouts after which the request certainly never reached Telegram.
NOT_SENT = (httpx.ConnectTimeout, httpx.PoolTimeout, NotSent)


@dataclass(frozen=True)
class Sent:
    """Telegram took it: the message's id (None when there was nothing to send, or the id is
    unknown). An edit's mark may be `lazy` (storage.marks): it joins the next marks written."""

    message_id: int | None
    lazy: bool = False


@dataclass(frozen=True)
class Wait:
    """Not now: the chat's slot frees in `seconds`. With a `reason` the row goes back to the
    outbox whatever its lease; `paused` when Telegram said 429 (the chat pauses too)."""

    seconds: float
    reason: str | None = None
    paused: bool = False


@dataclass(frozen=True)
class AnswerLost:
    """The request of part `part` went out and its answer was lost: Telegram may well have
    delivered it. `sent` are the ids of the parts before it."""

    part: int
    sent: tuple[int, ...] = ()


@dataclass(frozen=True)
class Unreachable:
    """The chat cannot be reached (403, or a person's "chat not found") until a person
    starts the bot or the bot is added back."""

    error: TelegramError


@dataclass(frozen=True)
class Migrated:
    """The group became a supergroup: its rows follow it."""

    new_chat_id: int


@dataclass(frozen=True)
class Failed:
    """It did not go (a network error): tried again after a back-off."""

    reason: str


@dataclass(frozen=True)
class Refused:
    """Telegram refused the message itself: it never goes."""

    reason: str


@dataclass(frozen=True)
class Stopped:
    """The sender is stopping: nothing was sent, the row stays claimed (given back)."""


Outcome = Sent | Wait | AnswerLost | Unreachable | Migrated | Failed | Refused | Stopped
STOPPED = Stopped()


def of_error(
    error: TelegramError, *, private: bool, part: int | None = None, sent: tuple[int, ...] = ()
) -> Outcome:
    """What Telegram's error says of the attempt. `private`: the row is a person's (their
    "chat not found" means they never started the bot). A timeout after the request went
    out is a lost answer of `part`; with no `part` (an edit, which shows the same if sent
    twice) it is simply retried."""
    if isinstance(error, Forbidden):
        return Unreachable(error)
    if isinstance(error, ChatMigrated):
        return Migrated(error.new_chat_id)
    if isinstance(error, RetryAfter):  # this chat only waits; no attempt is counted
        wait = error.retry_after
        seconds = wait.total_seconds() if isinstance(wait, timedelta) else float(wait)
        return Wait(seconds, "429", paused=True)
    if isinstance(error, BadRequest):
        if private and "chat not found" in error.message.lower():
            return Unreachable(error)
        return Refused(error.message)
    if (
        isinstance(error, TimedOut)
        and part is not None
        and not isinstance(error.__cause__, NOT_SENT)
    ):
        return AnswerLost(part, sent)
    return Failed(str(error))
