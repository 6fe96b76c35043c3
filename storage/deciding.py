"""A command decided on a known state, once per attempt, and the messages it owes: the
bot's planner is handed the decision, and may read the game's log in the command's
transaction (storage.commands runs the attempts)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime

from sqlalchemy.engine import Connection

from engine import REGISTRY
from engine.commands import Command
from engine.decide import decide_and_apply
from engine.decision import Decision
from engine.errors import RuleError
from engine.registry import Registry
from storage.cache import Known
from storage.log import read_events
from storage.messages_owed import OutboxItem, PlanContext, Planner


@dataclass(frozen=True)
class Decided:
    """A command decided on `known`: the engine's decision and the messages it owes, or
    the engine's refusal."""

    known: Known
    decision: Decision | None
    refusal: RuleError | None = None
    items: tuple[OutboxItem, ...] = ()


def decide(
    known: Known,
    command: Command,
    now: datetime,
    planner: Planner | None,
    place: Callable[[], str],
    conn: Connection | None = None,
    registry: Registry = REGISTRY,
) -> Decided:
    """The engine's decision on `known`, once, and the messages it owes (or its refusal);
    `conn`: the transaction the planner may read the game's log in (LogUnread without)."""
    try:
        decision = decide_and_apply(known.state, command, now, registry)
    except RuleError as refusal:
        return Decided(known, None, refusal)
    return Decided(known, decision, None, plan(planner, known, decision, place, conn, registry))


def plan(
    planner: Planner | None,
    known: Known,
    decision: Decision,
    place: Callable[[], str],
    conn: Connection | None,
    registry: Registry = REGISTRY,
) -> tuple[OutboxItem, ...]:
    """The messages a command decided on `known` owes (`place()`: its chat's label; the
    game's log read in `conn` when the planner asks for it)."""
    if planner is None or not decision.events:
        return ()
    chat, topic, first = known.chat_id, known.topic_id, known.seq + 1
    ctx = PlanContext(known.game_id, chat, topic, decision, first, place())
    if conn is not None:
        ctx = replace(ctx, earlier=lambda: read_events(conn, known.game_id, 0, known.seq, registry))
    return tuple(planner(ctx))
