"""Leases: how outbox rows and deadline rows are claimed by one worker at a time.

A claim sets `claimed_by` and `lease_until` on the rows it takes; a row whose lease has
run out may be claimed again (its holder is presumed dead). On PostgreSQL the candidate
rows are locked FOR UPDATE SKIP LOCKED, so several workers share a queue without waiting
on each other; on SQLite the claim runs in a BEGIN IMMEDIATE transaction, which already
admits one writer at a time.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Row, select, update
from sqlalchemy.engine import Connection


def lease_rows(
    conn: Connection,
    model: Any,
    claimable: Any,
    *,
    order_by: Sequence[Any],
    limit: int,
    worker: str,
    now: datetime,
    lease: timedelta,
    **values: Any,
) -> Sequence[Row[Any]]:
    """Claim for `worker` until now + lease the first `limit` rows of `model` (in
    `order_by` order) that are `claimable`, also setting `values`; the claimed rows, in
    no particular order."""
    candidates = select(model.id).where(claimable).order_by(*order_by).limit(limit)
    if conn.dialect.name == "postgresql":
        candidates = candidates.with_for_update(of=model, skip_locked=True)
    chosen = candidates.cte("chosen")
    claim = (
        update(model)
        .where(model.id.in_(select(chosen.c.id)))
        .values(claimed_by=worker, lease_until=now + lease, **values)
        .returning(model)
    )
    return conn.execute(claim).all()
