"""The event log of a game: append, read, and the state it folds into.

Loading a state reads the game's last_seq, then starts from the freshest of: this
process's cached state, a snapshot, nothing; and replays only the events after it.
Events are immutable once committed, so a cached state at seq N stays right forever.
"""

from __future__ import annotations

from collections import OrderedDict
from datetime import datetime
from typing import Any

from sqlalchemy import insert, select
from sqlalchemy.ext.asyncio import AsyncConnection

from engine.codec import event_from_dict, event_to_dict
from engine.events import Event
from engine.evolve import replay
from engine.state import Game
from storage.models import EventRecord, SnapshotRecord
from storage.snapshots import decode_state, encode_state, snapshot_format
from storage.sql import dumps, insert_for, loads


class CorruptLog(RuntimeError):
    """The log of a game has a gap or does not replay: never expected, never hidden."""


def encode_event(event: Event) -> tuple[str, str]:
    data = event_to_dict(event)
    return data["type"], dumps(data)


def decode_event(data: str) -> Event:
    return event_from_dict(loads(data))


async def append_events(
    conn: AsyncConnection, game_id: int, first_seq: int, events: list[Event], now: datetime
) -> None:
    """Insert events as first_seq, first_seq + 1, ...; a taken seq raises IntegrityError."""
    rows: list[dict[str, Any]] = []
    for offset, event in enumerate(events):
        kind, data = encode_event(event)
        row = {"game_id": game_id, "seq": first_seq + offset, "type": kind, "data": data}
        rows.append(row | {"recorded_at": now})
    await conn.execute(insert(EventRecord), rows)


async def read_events(
    conn: AsyncConnection, game_id: int, after: int = 0, upto: int | None = None
) -> list[Event]:
    """The events with after < seq <= upto, in order; a gap raises CorruptLog."""
    query = select(EventRecord.seq, EventRecord.data).where(
        EventRecord.game_id == game_id, EventRecord.seq > after
    )
    if upto is not None:
        query = query.where(EventRecord.seq <= upto)
    rows = (await conn.execute(query.order_by(EventRecord.seq))).all()
    for expected, row in enumerate(rows, start=after + 1):
        if row.seq != expected:
            raise CorruptLog(f"game {game_id}: event {expected} missing")
    if upto is not None and len(rows) != upto - after:
        raise CorruptLog(f"game {game_id}: events {after + len(rows) + 1}..{upto} missing")
    return [decode_event(row.data) for row in rows]


class StateCache:
    """The latest known state of recently used games in this process (bounded LRU)."""

    def __init__(self, size: int = 1000) -> None:
        self.size = size
        self._states: OrderedDict[int, tuple[int, Game]] = OrderedDict()

    def get(self, game_id: int) -> tuple[int, Game] | None:
        found = self._states.get(game_id)
        if found is not None:
            self._states.move_to_end(game_id)
        return found

    def put(self, game_id: int, seq: int, state: Game) -> None:
        known = self._states.get(game_id)
        if known is not None and known[0] > seq:
            return
        self._states[game_id] = (seq, state)
        self._states.move_to_end(game_id)
        while len(self._states) > self.size:
            self._states.popitem(last=False)

    def clear(self) -> None:
        self._states.clear()


async def load_state(
    conn: AsyncConnection, game_id: int, last_seq: int, cache: StateCache | None
) -> Game | None:
    """The state after event `last_seq` (None for an empty log)."""
    base_seq, base = 0, None
    cached = cache.get(game_id) if cache is not None else None
    if cached is not None and cached[0] <= last_seq:
        base_seq, base = cached
    if base_seq < last_seq and base_seq == 0:
        snap = await read_snapshot(conn, game_id, last_seq)
        if snap is not None:
            base_seq, base = snap
    if base_seq == last_seq:
        return base
    events = await read_events(conn, game_id, after=base_seq, upto=last_seq)
    state = replay(events, base)
    if state is not None and cache is not None:
        cache.put(game_id, last_seq, state)
    return state


async def read_snapshot(conn: AsyncConnection, game_id: int, upto: int) -> tuple[int, Game] | None:
    """A usable snapshot at or before `upto`, or None (missing, old format, unreadable)."""
    query = select(SnapshotRecord.seq, SnapshotRecord.format, SnapshotRecord.data).where(
        SnapshotRecord.game_id == game_id
    )
    row = (await conn.execute(query)).first()
    if row is None or row.seq > upto or row.format != snapshot_format():
        return None
    try:
        return row.seq, decode_state(loads(row.data))
    except Exception:  # a cache: any trouble means replay instead
        return None


async def write_snapshot(
    conn: AsyncConnection, game_id: int, seq: int, state: Game, now: datetime
) -> None:
    """Keep one snapshot per game, the latest."""
    values = {
        "game_id": game_id,
        "seq": seq,
        "format": snapshot_format(),
        "data": dumps(encode_state(state)),
        "written_at": now,
    }
    insert = insert_for(conn.dialect.name, SnapshotRecord).values(values)
    update = {k: insert.excluded[k] for k in ("seq", "format", "data", "written_at")}
    await conn.execute(insert.on_conflict_do_update(index_elements=["game_id"], set_=update))
