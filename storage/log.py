"""The event log of a game: append, read, and the state it folds into.

A state is rebuilt from the freshest of: a state the caller already knows (this process's
cache), a snapshot, nothing; then only the events after it are replayed. Events are
immutable once committed, so a state known at seq N stays right forever.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Connection

from engine import REGISTRY
from engine.codec import Codec, event_to_dict
from engine.events import Event
from engine.evolve import replay
from engine.registry import Registry
from engine.state import Game
from storage.models import EventRecord, SnapshotRecord
from storage.snapshots import decode_state, snapshot_format
from storage.sql import dumps, loads


class CorruptLog(RuntimeError):
    """The log of a game has a gap or does not replay: never expected, never hidden."""


def encode_event(event: Event) -> tuple[str, str]:
    data = event_to_dict(event)
    return data["type"], dumps(data)


def decode_event(data: str, codec: Codec = REGISTRY.codec) -> Event:
    """A stored event, read with a registry's names (the shipped one's unless told)."""
    return codec.event_from_dict(loads(data))


def event_rows(
    game_id: int, first_seq: int, events: list[Event], now: datetime
) -> list[dict[str, Any]]:
    """The events table's rows for events numbered from first_seq."""
    rows: list[dict[str, Any]] = []
    for offset, event in enumerate(events):
        kind, data = encode_event(event)
        row = {"game_id": game_id, "seq": first_seq + offset, "type": kind, "data": data}
        rows.append(row | {"recorded_at": now})
    return rows


def read_events(
    conn: Connection,
    game_id: int,
    after: int = 0,
    upto: int | None = None,
    registry: Registry = REGISTRY,
) -> list[Event]:
    """The events with after < seq <= upto, in order (read with the registry's names); a
    gap raises CorruptLog."""
    query = select(EventRecord.seq, EventRecord.data).where(
        EventRecord.game_id == game_id, EventRecord.seq > after
    )
    if upto is not None:
        query = query.where(EventRecord.seq <= upto)
    rows = (conn.execute(query.order_by(EventRecord.seq))).all()
    for expected, row in enumerate(rows, start=after + 1):
        if row.seq != expected:
            raise CorruptLog(f"game {game_id}: event {expected} missing")
    if upto is not None and len(rows) != upto - after:
        raise CorruptLog(f"game {game_id}: events {after + len(rows) + 1}..{upto} missing")
    return [decode_event(row.data, registry.codec) for row in rows]


def load_state(
    conn: Connection,
    game_id: int,
    last_seq: int,
    base: tuple[int, Game] | None = None,
    registry: Registry = REGISTRY,
) -> Game | None:
    """The state after event `last_seq` (None for an empty log).

    `base` is a known (seq, state) at or before last_seq, e.g. from this process's cache;
    without one a snapshot is tried, then the events after it are replayed.
    """
    base_seq, state = base if base is not None and base[0] <= last_seq else (0, None)
    if base_seq == 0 and last_seq > 0:
        snap = read_snapshot(conn, game_id, last_seq, registry)
        if snap is not None:
            base_seq, state = snap
    if base_seq == last_seq:
        return state
    events = read_events(conn, game_id, base_seq, last_seq, registry)
    return replay(events, state)


def read_snapshot(
    conn: Connection, game_id: int, upto: int, registry: Registry = REGISTRY
) -> tuple[int, Game] | None:
    """A usable snapshot at or before `upto`, or None (missing, old format, unreadable)."""
    query = select(SnapshotRecord.seq, SnapshotRecord.format, SnapshotRecord.data).where(
        SnapshotRecord.game_id == game_id
    )
    row = (conn.execute(query)).first()
    if row is None or row.seq > upto or row.format != snapshot_format():
        return None
    try:
        return row.seq, decode_state(loads(row.data), registry.codec)
    except Exception:  # a cache: any trouble means replay instead
        return None
