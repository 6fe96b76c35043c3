"""What a sender sent lately, for its edits: the message id without a look-up."""

from __future__ import annotations

from collections import OrderedDict

KEPT = 20_000


class SentIds:
    """The ids of the messages the latest rows sent, by row key (the oldest forgotten)."""

    def __init__(self, kept: int = KEPT) -> None:
        self.kept = kept
        self._ids: OrderedDict[str, tuple[int, int]] = OrderedDict()  # key -> chat, id

    def remember(self, key: str, chat_id: int, message_id: int) -> None:
        self._ids[key] = (chat_id, message_id)
        if len(self._ids) > self.kept:
            self._ids.popitem(last=False)

    def get(self, key: str, chat_id: int) -> int | None:
        """The id of the message row `key` sent to the chat, if this sender knows it."""
        known = self._ids.get(key)
        return known[1] if known is not None and known[0] == chat_id else None
