"""What the scheduler asks of storage so a clock waits for its message: the clocks of a
game's messages still on their way, and a due deadline postponed (bot.scheduler)."""

from __future__ import annotations

from datetime import timedelta

from storage.messages_owed import OutboxItem, PlanContext
from storage.service import Store
from tests.support.stored_games import NOW, later, new_game, suggestion_for

PERSON = 42


def _clocked(ctx: PlanContext) -> list[OutboxItem]:
    """A post starting the refuter's clock 1 and a private message starting turn 2's."""
    key = f"g{ctx.game_id}:e{ctx.first_seq}"
    return [
        OutboxItem(
            key=f"{key}:post",
            chat_id=ctx.chat_id,
            payload={"game": ctx.game_id, "clock": ["refute", 1]},
        ),
        OutboxItem(
            key=f"{key}:dm",
            chat_id=PERSON,
            user_id=PERSON,
            payload={"game": ctx.game_id, "clock": ["turn", 2], "args": {"clock": 1}},
        ),
    ]


async def test_the_clocks_of_a_games_messages_on_their_way(store: Store) -> None:
    game = await new_game(store)
    other = await new_game(store, chat_id=-100777)
    gid = game.game_id
    await store.execute(gid, suggestion_for(game.state, 2, 3), NOW, _clocked)
    await store.execute(other.game_id, suggestion_for(other.state, 2, 3), NOW, _clocked)
    assert await store.outbox.clocks_on_the_way(gid) == {("refute", 1), ("turn", 2)}
    claimed = await store.outbox.claim("w", NOW, limit=100)
    [dm] = [r for r in claimed if r.chat_id == PERSON and r.game_id == gid]
    assert await store.outbox.clocks_on_the_way(gid) == {("refute", 1), ("turn", 2)}, "claimed"
    assert await store.outbox.mark_sent(dm.id, 9, later(seconds=3))
    assert await store.outbox.clocks_on_the_way(gid) == {("refute", 1)}


async def test_a_due_deadline_postponed_runs_later_unless_a_command_moved_it(store: Store) -> None:
    game = await new_game(store)
    end = game.state.day_ends_at
    assert end is not None
    [row] = [r for r in await store.deadlines.claim_due("w", end) if r.key == "day:1"]
    assert await store.deadlines.postpone(row, end + timedelta(seconds=5))
    assert not await store.deadlines.postpone(row, end + timedelta(seconds=9)), "moved already"
    assert "day:1" not in {r.key for r in await store.deadlines.claim_due("w2", end)}
    again = await store.deadlines.claim_due("w2", end + timedelta(seconds=5))
    assert [r.due_at for r in again if r.key == "day:1"] == [end + timedelta(seconds=5)]
