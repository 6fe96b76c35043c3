"""Shared by the storage tests: a clock, a planner, real games, and a consistency check."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import select, text
from sqlalchemy.engine import Connection

from engine import commands as cmd
from engine import events as ev
from engine.deadlines import deadlines
from engine.evolve import replay
from engine.settings import Settings
from engine.state import Game
from simulation.moves import answer_for as answer_for
from simulation.moves import suggestion_for as suggestion_for
from storage.members import members
from storage.messages_owed import OutboxItem, PlanContext
from storage.models import (
    Base,
    DeadlineRecord,
    EventRecord,
    GameRecord,
    MemberRecord,
    OutboxRecord,
)
from storage.service import Outcome, Store

NOW = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
CHAT = -1001234567890
# Enough suggestions for tests that make many in one day.
ROOMY = Settings(suggestions_per_day=1000, max_per_target_per_day=1000)


def planner(ctx: PlanContext) -> list[OutboxItem]:
    """One thread message per event; the shown card also goes to the suggester by DM."""
    items = []
    for seq, event in enumerate(ctx.events, start=ctx.first_seq):
        key = f"g{ctx.game_id}:e{seq}"
        payload = {"event": type(event).__name__, "seq": seq}
        items.append(
            OutboxItem(key=key, chat_id=ctx.chat_id, topic_id=ctx.topic_id, payload=payload)
        )
        if isinstance(event, ev.SuggestionRefuted):
            user = ctx.after.players[ctx.after.suggestions[event.suggestion - 1].suggester].user
            items.append(
                OutboxItem(
                    key=f"{key}:dm",
                    chat_id=user,
                    user_id=user,
                    payload={"card": event.card},
                    reply_to_key=key,
                )
            )
    return items


async def new_game(
    store: Store,
    chat_id: int = CHAT,
    topic_id: int = 0,
    players: int = 4,
    settings: Settings | None = None,
    start: bool = True,
    seed: int = 7,
) -> Outcome:
    """A game with users 1..players, started unless start=False."""
    opening = cmd.OpenLobby(actor=1, seed=seed, settings=settings or Settings())
    outcome = await store.create_game(chat_id, topic_id, opening, NOW, planner)
    for user in range(2, players + 1):
        outcome = await store.execute(outcome.game_id, cmd.JoinLobby(actor=user), NOW, planner)
    if start:
        outcome = await store.execute(outcome.game_id, cmd.StartGame(actor=1), NOW, planner)
    return outcome


def _count_rows(conn: Connection) -> dict[str, int]:
    return {
        table.name: conn.execute(text(f"SELECT count(*) FROM {table.name}")).scalar_one()
        for table in Base.metadata.sorted_tables
    }


async def count_rows(store: Store) -> dict[str, int]:
    """Rows per table: to prove that something wrote nothing."""
    return await store.db.run_read(_count_rows)


def _stored(conn: Connection, game_id: int) -> dict[str, Any]:
    """What the database holds for a game besides its events."""
    g, e, o, d, m = GameRecord, EventRecord, OutboxRecord, DeadlineRecord, MemberRecord
    seqs = select(e.seq).where(e.game_id == game_id).order_by(e.seq)
    return {
        "game": conn.execute(select(g).where(g.id == game_id)).one(),
        "seqs": conn.execute(seqs).scalars().all(),
        "keys": set(conn.execute(select(o.key).where(o.game_id == game_id)).scalars()),
        "deadlines": {r.key: r.due_at for r in conn.execute(select(d).where(d.game_id == game_id))},
        "members": set(conn.execute(select(m.user_id).where(m.game_id == game_id)).scalars()),
    }


async def check_consistency(store: Store, game_id: int, planned: bool = True) -> Game:
    """Everything a game's log implies is there, and nothing else: the crash-safety oracle."""
    events = await store.events(game_id)
    state = replay(events)
    assert state is not None
    found = await store.db.run_read(_stored, game_id)
    game, seqs, keys = found["game"], found["seqs"], found["keys"]
    stored, people = found["deadlines"], found["members"]
    assert list(seqs) == list(range(1, len(events) + 1)), "gap or duplicate in the sequence"
    assert game.last_seq == len(events), "last_seq disagrees with the log"
    assert game.status == state.phase.value
    if planned:
        thread_keys = {k for k in keys if not k.endswith(":dm")}
        assert thread_keys == {f"g{game_id}:e{seq}" for seq in seqs}, "outbox rows missing or extra"
    assert stored == {d.key: d.at for d in deadlines(state)}, "deadline rows differ from the state"
    assert people == members(state)
    loaded = await store.load(game_id)
    assert loaded == state
    return state


def later(**kwargs: float) -> datetime:
    return NOW + timedelta(**kwargs)
