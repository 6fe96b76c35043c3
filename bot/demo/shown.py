"""What the bot has shown, read from the fake Bot API's log of calls: each message's
versions in the order the bot made them (a send, then each edit), with the callback data of
the buttons each version carries. The scene finds the newest message among chats by it; the
tempo bench (bench/tempo) tells from it since when a person could see a button."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fakebot import ApiCall, FakeTelegram

SENDS = frozenset({"sendMessage", "sendPhoto"})
EDITS = frozenset(
    {"editMessageText", "editMessageCaption", "editMessageMedia", "editMessageReplyMarkup"}
)
Spot = tuple[int, int]  # (chat, message)


@dataclass(frozen=True)
class Version:
    """One version of a message: the index of its call in the log, the call itself, and the
    callback data of its buttons."""

    index: int
    call: ApiCall
    data: frozenset[str]


class Shown:
    """The versions of every message the bot sent, brought up to date by `update`."""

    def __init__(self, server: FakeTelegram) -> None:
        self.server = server
        self.seen = 0  # calls of the log read so far
        self.versions: dict[Spot, list[Version]] = {}

    def update(self) -> None:
        """Reads the calls made since the last look."""
        calls = self.server.calls
        while self.seen < len(calls):
            call = calls[self.seen]
            spot = spot_of(call)
            if spot is not None:
                version = Version(self.seen, call, callback_data(call.params.get("reply_markup")))
                self.versions.setdefault(spot, []).append(version)
            self.seen += 1

    def order(self, spot: Spot) -> int:
        """The index of the last call that changed the message (-1: none seen)."""
        self.update()
        versions = self.versions.get(spot)
        return versions[-1].index if versions else -1

    def since(self, spot: Spot, data: str) -> Version | None:
        """The version from which the message has carried a button with `data` without a
        break (None: its current version has none)."""
        self.update()
        found = None
        for version in reversed(self.versions.get(spot, [])):
            if data not in version.data:
                break
            found = version
        return found

    def last(self, chat: int) -> Version | None:
        """The newest version of any message in `chat`."""
        self.update()
        newest = [vs[-1] for (c, _), vs in self.versions.items() if c == chat and vs]
        return max(newest, key=lambda v: v.index, default=None)


def spot_of(call: ApiCall) -> Spot | None:
    """The message a successful send or edit made or changed (None for any other call)."""
    if not call.ok:
        return None
    chat = call.params.get("chat_id")
    if call.method in SENDS:
        result = call.response.get("result")
        message = result.get("message_id") if isinstance(result, dict) else None
    elif call.method in EDITS:
        message = call.params.get("message_id")
    else:
        return None
    if isinstance(chat, int) and isinstance(message, int):
        return chat, message
    return None


def callback_data(markup: Any) -> frozenset[str]:
    """The callback data of an inline keyboard's buttons."""
    if not isinstance(markup, dict):
        return frozenset()
    rows = markup.get("inline_keyboard") or []
    return frozenset(
        str(b["callback_data"]) for row in rows for b in row if b.get("callback_data") is not None
    )
