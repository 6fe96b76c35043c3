"""What one command writes, described once per attempt, after the engine decided it once:
the game row's move (a compare-and-set on its last seq and chat), the events, the update's
handled row, the deadline rows' changes, the outbox rows (each chat's first due one claimed
at insert, an edit of a message with an edit still pending replacing that one), the
members' changes and a snapshot when one is due.

Each backend writes a description with one SQL path: storage.write_postgresql (one
statement), storage.write_sqlite (a few fixed statements on the driver's cursor). The
optimistic attempt (on the state this process wrote last) and the locked one (on the state
read under the game row's lock) write it alike; they differ only in how they read.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from engine.decision import Decision
from storage.cache import Known
from storage.claims import due_items, heads
from storage.deadlines import Wanted, deadline_changes, wanted_rows
from storage.log import event_rows
from storage.members import members
from storage.messages_owed import OutboxItem, outbox_rows
from storage.snapshots import encode_state, snapshot_format
from storage.sql import dumps
from storage.updates import UpdateStep


@dataclass(frozen=True)
class Snapshot:
    """The state after a command, kept as the game's snapshot (storage.log)."""

    seq: int
    format: str
    data: str


@dataclass(frozen=True)
class CommandWrite:
    """Everything one command writes (see the module's docstring)."""

    game_id: int
    chat_id: int
    seq: int  # the game row's last_seq the command was decided on
    new_seq: int
    status: str
    touched: bool  # the game row's updated_at moves (the command wrote events)
    events: list[dict[str, Any]]
    step: UpdateStep | None
    gone_deadlines: list[str]
    moved_deadlines: Wanted
    wanted: Wanted  # the game's deadline rows after the write
    items: Sequence[OutboxItem]  # in the planner's order, edits of one message made one
    rows: list[dict[str, Any]]  # the outbox rows of `items`, pending
    heads: set[int]  # places in `items` that are claimed at insert (when nothing is ahead)
    due: list[OutboxItem]  # the items that may go out now
    worker: str | None  # who claims at insert (None: nobody)
    lease: timedelta
    joined: list[int]
    left: list[int]
    snapshot: Snapshot | None


def describe(
    known: Known,
    decision: Decision,
    now: datetime,
    items: Sequence[OutboxItem],
    step: UpdateStep | None,
    *,
    worker: str | None,
    lease: timedelta,
    snapshot_every: int | None,
) -> CommandWrite:
    """The writes of `decision`, decided on `known` (whose deadline rows must be known)."""
    assert known.deadlines is not None, "the game's deadline rows are read before"
    before, events, after = decision.before, decision.events, decision.state
    new_seq = known.seq + len(events)
    wanted = wanted_rows(after) if events else known.deadlines
    gone, moved = deadline_changes(wanted, known.deadlines)
    own = one_edit_per_message(items)
    keys = [item.key for item in own]
    if len(set(keys)) != len(keys):
        raise ValueError(f"outbox keys repeat within one command: {keys}")
    old, new = members(before), members(after)
    every = snapshot_every
    snapshot = None
    if events and every and new_seq // every > known.seq // every:
        snapshot = Snapshot(new_seq, snapshot_format(), dumps(encode_state(after)))
    return CommandWrite(
        game_id=known.game_id,
        chat_id=known.chat_id,
        seq=known.seq,
        new_seq=new_seq,
        status=after.phase.value,
        touched=bool(events),
        events=event_rows(known.game_id, known.seq + 1, events, now),
        step=step,
        gone_deadlines=gone,
        moved_deadlines=moved,
        wanted=wanted,
        items=own,
        rows=outbox_rows(own, now, known.game_id),
        heads=heads(own, now) if worker is not None else set(),
        due=due_items(own, now),
        worker=worker,
        lease=lease,
        joined=sorted(new - old),
        left=sorted(old - new) if before is not None else [],
        snapshot=snapshot,
    )


def written_state(known: Known, decision: Decision, write: CommandWrite) -> Known:
    """The game as the write left it (its deadline rows known: they are the ones written)."""
    after = decision.state
    return Known(known.game_id, write.new_seq, after, known.chat_id, known.topic_id, write.wanted)


def edit_target(item: OutboxItem) -> str | None:
    """The message an edit item edits (None for anything else)."""
    target = item.payload.get("target") if item.payload.get("op") == "edit" else None
    return str(target) if target is not None else None


def one_edit_per_message(items: Sequence[OutboxItem]) -> list[OutboxItem]:
    """Items with the edits of one message (in one chat) made one: the first one's place and
    key, the last one's payload. The message then shows the newest state once, as when an
    edit replaces one still pending in the outbox (storage.messages_owed)."""
    last: dict[tuple[int, str], OutboxItem] = {}
    for item in items:
        target = edit_target(item)
        if target is not None:
            last[item.chat_id, target] = item
    kept: list[OutboxItem] = []
    seen: set[tuple[int, str]] = set()
    for item in items:
        target = edit_target(item)
        if target is None:
            kept.append(item)
        elif (item.chat_id, target) not in seen:
            seen.add((item.chat_id, target))
            kept.append(replace(item, payload=last[item.chat_id, target].payload))
    return kept
