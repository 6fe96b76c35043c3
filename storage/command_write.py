"""What a usual command writes, worked out once for either backend's fast write
(storage.one_trip on PostgreSQL, storage.one_trip_sqlite on SQLite)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from storage.deadlines import Wanted
from storage.messages_owed import OutboxItem
from storage.updates import Step


@dataclass(frozen=True)
class CommandWrite:
    """What one command writes: the game row's move, events, deadlines and messages."""

    game_id: int
    chat_id: int
    seq: int
    new_seq: int
    status: str
    events: list[dict[str, Any]]
    had: Wanted
    wanted: Wanted
    items: Sequence[OutboxItem]
    step: Step | None
    worker: str | None
    lease: timedelta


def fits(items: Sequence[OutboxItem]) -> bool:
    """Whether a fast write can write these messages (at most one edit among them)."""
    return sum(1 for item in items if item.payload.get("op") == "edit") <= 1


def edit_target(item: OutboxItem) -> str | None:
    """The message an edit item edits (None for anything else)."""
    target = item.payload.get("target") if item.payload.get("op") == "edit" else None
    return str(target) if target is not None else None
