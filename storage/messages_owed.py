"""The messages a command owes: what the planner is given and returns, and how the items
it returns are stored as outbox rows.

Storage never renders text. After the engine decides, `execute` calls the planner (passed
in by the bot) with a PlanContext and stores the OutboxItems it returns with
`insert_items`, in the same transaction as the events.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import cache
from typing import Any, Protocol

from sqlalchemy import select, update
from sqlalchemy.engine import Connection

from engine.decision import Decision
from engine.events import Event
from engine.state import Game
from storage.models import OutboxRecord, OutboxStatus
from storage.sql import dumps, insert_for, loads, rowcount


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

    @property
    def decoration(self) -> bool:
        """Only told (the payload's `decoration`): it gives way to later rows of its chat."""
        return bool(self.payload.get("decoration"))

    @property
    def owed(self) -> bool:
        """Composed later (the payload names a `compose` kind): stored `owed` with the
        command that owes it, until the bot composes it after the commit (storage.owed)."""
        return bool(self.payload.get("compose"))


class LogUnread(Exception):
    """A planner asked for the game's log where storage cannot read it (a one-statement
    write): the command is planned again in a transaction."""


def _unread() -> Sequence[Event]:
    raise LogUnread()


@dataclass(frozen=True)
class PlanContext:
    """A command's result: the engine's decision (the state before, None for a new game,
    and each event with the state after it, folded once by the engine).

    The events are numbered first_seq, first_seq + 1, ... in the game's log. `place` names
    the game's chat and topic ("Title · Topic"; "" while unknown) for private messages.
    `earlier()` reads the game's events before these, in the command's transaction, for
    the planner that shows what the state forgets (a forum game's index); LogUnread where
    there is no transaction to read in.
    """

    game_id: int
    chat_id: int
    topic_id: int
    decision: Decision
    first_seq: int
    place: str = ""
    earlier: Callable[[], Sequence[Event]] = _unread

    def log(self) -> list[Event]:
        """The game's whole log up to the command's last event (event `n` is `log()[n - 1]`)."""
        return [*self.earlier(), *self.events]

    @property
    def before(self) -> Game | None:
        return self.decision.before

    @property
    def events(self) -> list[Event]:
        return self.decision.events

    @property
    def after(self) -> Game:
        return self.decision.state


class Planner(Protocol):
    """Renders the messages a command's events owe; must be pure (it may run more than once)."""

    def __call__(self, ctx: PlanContext) -> list[OutboxItem]: ...


def insert_items(
    conn: Connection,
    items: Iterable[OutboxItem],
    now: datetime,
    game_id: int | None,
    *,
    count: bool = True,
) -> int:
    """Store items in order; an item whose key exists already is skipped.

    Returns how many were new (with count=False, how many were given: one round trip less).
    """
    rows = [row for row in outbox_rows(items, now, game_id) if not _coalesced(conn, row)]
    if not rows:
        return 0
    keys = [row["key"] for row in rows]
    if len(set(keys)) != len(keys):
        raise ValueError(f"outbox keys repeat within one batch: {keys}")
    insert = _insert(conn.dialect.name)
    # Rows are inserted in the order given, so ids follow that order.
    if not count:
        conn.execute(insert, rows)
        return len(rows)
    return len(conn.execute(insert.returning(OutboxRecord.id), rows).all())


def outbox_rows(
    items: Iterable[OutboxItem], now: datetime, game_id: int | None
) -> list[dict[str, Any]]:
    """The outbox table's rows for items, pending."""
    return [
        {
            "key": item.key,
            "game_id": game_id,
            "chat_id": item.chat_id,
            "topic_id": item.topic_id,
            "user_id": item.user_id,
            "payload": dumps(item.payload),
            "reply_to_key": item.reply_to_key,
            "decoration": item.decoration,
            "status": (OutboxStatus.OWED if item.owed else OutboxStatus.PENDING).value,
            "attempts": 0,
            "next_attempt_at": item.not_before or now,
            "created_at": now,
        }
        for item in items
    ]


def _coalesced(conn: Connection, row: dict[str, Any]) -> bool:
    """An edit whose target already has an edit pending (not yet claimed) replaces its payload
    (and whether it is decoration, which the payload says).

    The message then shows the newest state once, not every state in turn (Join/Leave). An
    edit that must follow the posts queued before it (`keep_place`: it links to them) is
    queued in its place instead. Pending rows of one chat are few, and the payload is small:
    filtered here in Python."""
    payload = loads(row["payload"])
    if payload.get("op") != "edit" or payload.get("keep_place"):
        return False
    o = OutboxRecord
    pending = select(o.id, o.payload).where(
        o.chat_id == row["chat_id"],
        o.status == OutboxStatus.PENDING,
        o.payload.contains('"op":"edit"'),
    )
    for row_id, text in conn.execute(pending.order_by(o.id)).all():
        if loads(text).get("target") == payload["target"]:
            replace = update(o).where(o.id == row_id, o.status == OutboxStatus.PENDING)
            # False when a sender claimed it meanwhile (PostgreSQL): then queue the new edit.
            values = replace.values(payload=row["payload"], decoration=row["decoration"])
            return rowcount(conn, values) == 1
    return False


@cache
def _insert(dialect: str) -> Any:
    return insert_for(dialect, OutboxRecord).on_conflict_do_nothing(index_elements=["key"])
