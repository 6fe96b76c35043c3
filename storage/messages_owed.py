"""What the bot layer hands storage: the messages a command owes, rendered, as outbox items.

Storage never renders text. After the engine decides, `execute` calls the planner with a
PlanContext and stores the items it returns in the same transaction as the events.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from engine.events import Event
from engine.state import Game


@dataclass(frozen=True)
class OutboxItem:
    """One message owed to a chat (thread) or to a person (direct message).

    `key` is unique: enqueueing the same key twice stores one row. For a direct message
    set `user_id` (and `chat_id` to the person's private chat, which in Telegram is the
    user id). `reply_to_key` names an earlier item whose sent message this one replies
    to. `not_before` delays the first attempt.
    """

    key: str
    chat_id: int
    topic_id: int = 0
    user_id: int | None = None
    payload: dict[str, Any] = field(default_factory=dict)
    reply_to_key: str | None = None
    not_before: datetime | None = None


@dataclass(frozen=True)
class PlanContext:
    """A command's result: the state before (None for a new game), the events, the state after.

    The events are numbered first_seq, first_seq + 1, ... in the game's log. `place` names
    the game's chat and topic ("Title · Topic"; "" while unknown) for private messages.
    """

    game_id: int
    chat_id: int
    topic_id: int
    before: Game | None
    events: list[Event]
    after: Game
    first_seq: int
    place: str = ""


class Planner(Protocol):
    """Renders the messages a command's events owe; must be pure (it may run more than once)."""

    def __call__(self, ctx: PlanContext) -> list[OutboxItem]: ...
