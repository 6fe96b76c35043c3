"""A person's repeated refusals in a group thread edit one reply while it is recent and
among the chat's last few messages; else the refusal is a reply of its own."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

SWEEP_EVERY = 1000  # replies remembered before the expired ones are forgotten
RECENT_MESSAGES = 5  # a repeated refusal edits the earlier reply only among these last ones


@dataclass
class Reply:
    """The reply that later refusals edit: its row's key, what it said, until when."""

    key: str
    said: tuple[str, str]
    until: float
    message_id: int | None  # the command it answered (Telegram numbers a chat's messages)


class RepeatedRefusals:
    """A person's refusals in one group thread edit one reply while it is recent and near.

    The first refusal is a reply to the person's command; later ones within `seconds`
    edit that reply (nothing at all when they say the same), so repeated refusals never
    become new posts in the thread. An edit far up the thread is easy to miss, so the
    reply is edited only while it is among the chat's last `recent` messages: Telegram
    numbers a group's messages one after another, so the new command's id less the id of
    the command that was answered says how many came since (counting the reply and the new
    command). Further up, the refusal is a reply of its own, which later ones then edit.
    `seconds` 0 turns this off.
    """

    def __init__(
        self,
        seconds: float = 120.0,
        clock: Callable[[], float] = time.monotonic,
        recent: int = RECENT_MESSAGES,
    ) -> None:
        self.seconds = seconds
        self.clock = clock
        self.recent = recent
        self._replies: dict[tuple[int, int, int], Reply] = {}

    def earlier(self, place: tuple[int, int, int], message_id: int | None = None) -> Reply | None:
        """The reply to edit for (chat, topic, person), if there is a recent, near one
        (`message_id` is the new command's)."""
        reply = self._replies.get(place)
        if reply is None or reply.until <= self.clock():
            return None
        if message_id is None or reply.message_id is None:
            return reply
        return reply if message_id - reply.message_id <= self.recent else None

    def posted(
        self,
        place: tuple[int, int, int],
        key: str,
        said: tuple[str, str],
        message_id: int | None = None,
    ) -> None:
        """A refusal was posted as the reply `key` to the command `message_id`."""
        if self.seconds <= 0:
            return
        now = self.clock()
        if len(self._replies) >= SWEEP_EVERY:
            self._replies = {p: r for p, r in self._replies.items() if r.until > now}
        self._replies[place] = Reply(key, said, now + self.seconds, message_id)
