"""When each rated game's notebooks forced the envelope against when their holders accused
(engine/notebook/moments.py), noted once per game after the ratings took it in, and a
person's averages per rating family for /me.

The notebook's exact solve takes seconds in a game of ten, so a game's moments are worked
out in a worker thread outside any transaction, never on a command's way (the bot does it
in the background after a game ends, newest first, a few games each time, so a backlog is
worked off over the next games' ends); writing them twice writes the same rows once."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import exists, func, select
from sqlalchemy.engine import Connection

from engine.events import Event
from engine.evolve import replay
from engine.notebook.moments import Moments, accusation_moments, moments_of, seat_holders
from engine.standings import family
from storage.database import Database
from storage.log import read_events
from storage.models import GameRecord
from storage.rating_models import NotebookMomentRecord, RatedGameRecord
from storage.sql import insert_for

log = logging.getLogger(__name__)

BATCH = 10  # games read at a time


@dataclass(frozen=True)
class Averages:
    """A person's moments in one family's rated games: the mean day or turn at which their
    notebook forced the envelope (over `forced_games` games), and at which they accused
    (over `accused_games`); None where there were none."""

    family: str
    forced: float | None
    forced_games: int
    accused: float | None
    accused_games: int


async def note_pending(db: Database, limit: int | None = None) -> int:
    """Note the moments of the rated games not yet noted, newest first (at most `limit`
    games: a backlog is worked off a part at a time); how many games."""
    total = 0
    before: int | None = None  # the games' order in the ratings: each is looked at once
    while limit is None or total < limit:
        batch = BATCH if limit is None else min(BATCH, limit - total)
        pending = await db.run_read(_pending_logs, before, batch)
        if not pending:
            break
        rows = []
        for seq, game_id, events in pending:
            rows += await asyncio.to_thread(_rows_of, game_id, events)
            before = seq
        await db.run_write(_write, rows)
        total += len(pending)
    return total


async def averages(db: Database, user_id: int) -> list[Averages]:
    """The person's averages, one per family they have rated games in."""
    return await db.run_read(_averages, user_id)


def _rows_of(game_id: int, events: Sequence[Event]) -> list[dict[str, object]]:
    """The game's rows: one per seat holder (a game whose notebook could not be read
    keeps its accusations, the notebook's moment left unknown)."""
    game = replay(list(events), None)
    assert game is not None, f"rated game {game_id} has no events"
    kind = family(game)
    try:
        found = moments_of(events)
    except Exception:  # a log the notebook cannot read: noted without it, not retried
        log.exception("notebook moments of game %s could not be read", game_id)
        accused = accusation_moments(events)
        holders = enumerate(seat_holders(events))
        found = tuple(Moments(user, None, accused.get(seat)) for seat, user in holders)
    rows: dict[int, dict[str, object]] = {}
    for m in found:
        row = {"forced": m.forced, "accused": m.accused, "family": kind}
        rows.setdefault(m.user, {"game_id": game_id, "user_id": m.user, **row})
    return list(rows.values())


def _pending_logs(
    conn: Connection, before: int | None, limit: int
) -> list[tuple[int, int, list[Event]]]:
    """Up to `limit` rated games without moments taken in before number `before` (None:
    any), with their numbers and logs, newest first."""
    r, m, g = RatedGameRecord, NotebookMomentRecord, GameRecord
    noted = exists().where(m.game_id == r.game_id)
    query = select(r.seq, r.game_id, g.last_seq).join(g, g.id == r.game_id)
    query = query.where(r.rated, ~noted).order_by(r.seq.desc()).limit(limit)
    if before is not None:
        query = query.where(r.seq < before)
    return [
        (row.seq, row.game_id, read_events(conn, row.game_id, 0, row.last_seq))
        for row in conn.execute(query).all()
    ]


def _write(conn: Connection, rows: list[dict[str, object]]) -> None:
    if rows:
        new = insert_for(conn.dialect.name, NotebookMomentRecord)
        conn.execute(new.on_conflict_do_nothing(index_elements=["game_id", "user_id"]), rows)


def _averages(conn: Connection, user_id: int) -> list[Averages]:
    m = NotebookMomentRecord
    query = (
        select(
            m.family,
            func.avg(m.forced),
            func.count(m.forced),
            func.avg(m.accused),
            func.count(m.accused),
        )
        .where(m.user_id == user_id)
        .group_by(m.family)
        .order_by(m.family)
    )
    return [
        Averages(
            kind,
            None if forced is None else float(forced),
            forced_games,
            None if accused is None else float(accused),
            accused_games,
        )
        for kind, forced, forced_games, accused, accused_games in conn.execute(query).all()
    ]
