"""Rows owed but composed later (storage.owed): written `owed` by the command that owes
them, in its own write (both write paths, claiming at insert or not); neither claimed by a
sender nor holding back their chat until composed; composed once however many workers
race; a dead composer's claim given back."""

from __future__ import annotations

from datetime import timedelta

import pytest

from engine import commands as cmd
from storage.claims import OutboxRow
from storage.messages_owed import OutboxItem, PlanContext
from storage.models import OutboxStatus
from storage.owed import LEASE
from storage.service import Store
from tests.support.stored_games import CHAT, NOW, new_game, planner


def owing(ctx: PlanContext) -> list[OutboxItem]:
    """The test planner's rows, and after them one owed row of the thread per command."""
    owed = OutboxItem(
        key=f"g{ctx.game_id}:owed:{ctx.first_seq}",
        chat_id=ctx.chat_id,
        topic_id=ctx.topic_id,
        payload={"compose": "story", "game": ctx.game_id},
    )
    return [*planner(ctx), owed]


async def _statuses(store: Store) -> dict[str, str]:
    rows = await store.db.run_read(
        lambda conn: conn.exec_driver_sql("SELECT key, status FROM outbox").all()
    )
    return {key: status for key, status in rows}


@pytest.mark.parametrize("claiming", [False, True])
async def test_an_owed_row_is_written_with_its_command_and_holds_nothing_back(
    store: Store, claiming: bool
) -> None:
    game = (await new_game(store, players=3, start=False)).game_id
    store.claim_for = "w" if claiming else None  # the write claims its chat's head row
    outcome = await store.execute(game, cmd.StartGame(actor=1), NOW, owing)
    owed_key = f"g{game}:owed:{outcome.last_seq - len(outcome.events) + 1}"
    statuses = await _statuses(store)
    assert statuses[owed_key] == OutboxStatus.OWED
    assert all(row.key != owed_key for row in outcome.handoff.rows)
    sent: list[str] = []
    for row in outcome.handoff.rows:  # claimed at insert: delivered by "w"
        sent.append(row.key)
        await store.outbox.mark_sent(row.id, len(sent), NOW)
    while rows := await store.outbox.claim("sender", NOW, limit=50):
        for row in rows:
            sent.append(row.key)
            await store.outbox.mark_sent(row.id, len(sent), NOW)
    assert owed_key not in sent
    ended = cmd.EndGame(actor=1, actor_is_admin=True)
    outcome = await store.execute(game, ended, NOW, planner)  # its rows go on, past the owed one
    for row in outcome.handoff.rows:
        sent.append(row.key)
        await store.outbox.mark_sent(row.id, len(sent), NOW)
    while rows := await store.outbox.claim("sender", NOW, limit=50):
        for row in rows:
            sent.append(row.key)
            await store.outbox.mark_sent(row.id, len(sent), NOW)
    statuses = await _statuses(store)
    assert statuses[owed_key] == OutboxStatus.OWED
    assert [k for k, s in statuses.items() if s != OutboxStatus.SENT] == [owed_key]


async def test_an_owed_row_is_composed_once_and_then_sent_like_any_other(store: Store) -> None:
    game = (await new_game(store, players=3, start=False)).game_id
    await store.execute(game, cmd.StartGame(actor=1), NOW, owing)
    [row] = await store.owed.claim("a", NOW)
    assert row.chat_id == CHAT and row.payload == {"compose": "story", "game": game}
    assert row.tries == 1
    assert await store.owed.claim("b", NOW) == [], "a holds it"
    later = NOW + LEASE + timedelta(seconds=1)
    [again] = await store.owed.claim("b", later)  # a's lease ran out: b composes it too
    assert again.id == row.id and again.tries == 2
    assert await store.owed.compose(again, {"text": "the story"}, later)
    assert not await store.owed.compose(row, {"text": "a second story"}, later), "once"
    assert await store.owed.claim("c", later + LEASE * 2) == []
    claimed: list[OutboxRow] = []
    for _ in range(20):  # behind the game's other rows in its chat
        for r in await store.outbox.claim("sender", later, limit=50):
            claimed += [r] if r.id == row.id else []
            await store.outbox.mark_sent(r.id, 1, later)
    assert len(claimed) == 1
    assert claimed[0].payload == {"text": "the story"}


async def test_a_dead_composers_claim_is_given_back_and_nothing_is_given_up(store: Store) -> None:
    game = (await new_game(store, players=3, start=False)).game_id
    await store.execute(game, cmd.StartGame(actor=1), NOW, owing)
    [held] = await store.owed.claim("dead", NOW)
    assert "dead" in await store.workers.claim_holders()
    assert await store.workers.release_claims("dead") == 1
    [again] = await store.owed.claim("alive", NOW)
    assert again.id == held.id
    assert (await _statuses(store))[again.key] == OutboxStatus.OWED
    assert await store.owed.give_up(again, "the game is gone")
    assert (await _statuses(store))[again.key] == OutboxStatus.FAILED
    assert await store.owed.claim("alive", NOW + LEASE * 2) == []
