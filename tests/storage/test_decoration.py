"""Play before decoration: an outbox row that only tells (an index's edit) gives way to the
later rows of its chat, never passes an earlier one, and is one edit however often it is
queued while it waits. On both backends, through every path that claims."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from engine import commands as cmd
from storage.claims import OutboxRow
from storage.messages_owed import OutboxItem, PlanContext
from storage.service import Store
from tests.support.stored_games import CHAT, NOW, later, new_game

GROUP = 10


def post(key: str, chat: int = GROUP) -> OutboxItem:
    return OutboxItem(key=key, chat_id=chat, payload={"text": key})


def index_edit(key: str, text: str, chat: int = GROUP, target: str = "index") -> OutboxItem:
    payload = {"op": "edit", "target": target, "text": text, "decoration": True}
    return OutboxItem(key=key, chat_id=chat, payload=payload)


async def _drain(store: Store, at: datetime) -> list[str]:
    """Claim and mark sent until nothing is left to claim at `at`: the keys in send order,
    checking that a chat never has two rows claimed at once."""
    order: list[str] = []
    while rows := await store.outbox.claim("w", at, limit=50):
        chats = [row.chat_id for row in rows]
        assert len(chats) == len(set(chats)), "two rows of one chat under way"
        for row in rows:
            order.append(row.key)
            await store.outbox.mark_sent(row.id, 100 + len(order), at)
    return order


async def _sent_index(store: Store) -> None:
    await store.outbox.enqueue([post("index")], NOW)
    [index] = await store.outbox.claim("w", NOW)
    await store.outbox.mark_sent(index.id, 1, NOW)


async def test_with_twenty_rows_waiting_a_post_queued_after_an_index_edit_goes_first(
    store: Store,
) -> None:
    await _sent_index(store)
    waiting = [post(f"w{n}") for n in range(20)]
    await store.outbox.enqueue(waiting, NOW)
    [head] = await store.outbox.claim("w", NOW)
    assert head.key == "w0"
    assert await store.outbox.defer(head.id, later(seconds=60))  # the group is at its limit
    await store.outbox.enqueue([index_edit("edit", "day 2")], NOW)
    await store.outbox.enqueue([post("prompt")], NOW)  # someone must act on this one
    assert await store.outbox.claim("w", later(seconds=30)) == [], "w0 still holds its chat"
    order = await _drain(store, later(seconds=60))
    assert order == [*(item.key for item in waiting), "prompt", "edit"]


async def test_a_decoration_row_at_its_chats_limit_holds_back_no_later_post(store: Store) -> None:
    await _sent_index(store)
    await store.outbox.enqueue([index_edit("edit", "void"), post("other", chat=20)], NOW)
    edit, other = await store.outbox.claim("w", NOW)
    assert edit.key == "edit"
    assert await store.outbox.defer(edit.id, later(seconds=40))  # at the group's limit
    await store.outbox.enqueue([post("prompt")], NOW)
    [prompt] = await store.outbox.claim("w", later(seconds=1))
    assert prompt.key == "prompt", "the edit gives way"
    # Due again, the edit waits while the post is under way, and goes once it is sent.
    assert await store.outbox.claim("w", later(seconds=40)) == []
    await store.outbox.mark_sent(prompt.id, 7, later(seconds=40))
    [again] = await store.outbox.claim("w", later(seconds=40))
    assert again.key == "edit"
    await store.outbox.mark_sent(other.id, 8, NOW)


async def test_a_decoration_row_never_passes_an_earlier_row(store: Store) -> None:
    """Its target, and whatever came before it, go first; two decoration rows keep their
    order; edits of one message still coalesce into the one waiting."""
    await store.outbox.enqueue([post("index"), post("day")], NOW)
    await store.outbox.enqueue([index_edit("e1", "first")], NOW)
    await store.outbox.enqueue([index_edit("e2", "links day")], NOW)
    await store.outbox.enqueue([index_edit("x1", "other", target="other")], NOW)
    await store.outbox.enqueue([post("prompt")], NOW)
    rows = await store.outbox.claim("w", NOW)
    assert [row.key for row in rows] == ["index"]
    await store.outbox.mark_sent(rows[0].id, 1, NOW)
    order = await _drain(store, NOW)
    assert order == ["day", "prompt", "e1", "x1"]  # e2 became e1 (one edit, the latest text)


async def test_a_waiting_index_edit_takes_in_the_next_and_follows_the_post_it_links_to(
    store: Store,
) -> None:
    """The day opens while an index edit waits: the day's post goes first, and the day's
    edit of the index (which links to that post) is the waiting one, not a second edit."""
    await _sent_index(store)
    await store.outbox.enqueue([post("busy")], NOW)
    [busy] = await store.outbox.claim("w", NOW)  # under way: the chat's rows wait
    await store.outbox.enqueue([index_edit("e1", "void")], NOW)
    await store.outbox.enqueue([post("day2"), index_edit("e2", "day 2, linked")], NOW)
    await store.outbox.mark_sent(busy.id, 2, NOW)
    rows: list[OutboxRow] = []
    while claimed := await store.outbox.claim("w", NOW):
        rows += claimed
        for row in claimed:
            await store.outbox.mark_sent(row.id, 3 + len(rows), NOW)
    assert [(r.key, r.payload["text"]) for r in rows] == [
        ("day2", "day2"),
        ("e1", "day 2, linked"),
    ]


async def test_an_edit_that_must_keep_its_place_takes_over_a_waiting_decoration_edit(
    store: Store,
) -> None:
    """A plain edit of the same message replaces the waiting one's payload: no longer
    decoration, it goes in that place (its message never shows an older text last)."""
    await _sent_index(store)
    await store.outbox.enqueue([index_edit("e1", "told")], NOW)
    plain = OutboxItem("e2", GROUP, payload={"op": "edit", "target": "index", "text": "act"})
    await store.outbox.enqueue([plain], NOW)
    await store.outbox.enqueue([post("later")], NOW)
    rows: list[OutboxRow] = []
    while claimed := await store.outbox.claim("w", NOW):
        rows += claimed
        for row in claimed:
            await store.outbox.mark_sent(row.id, 9, NOW)
    assert [(row.key, row.payload["text"]) for row in rows] == [("e1", "act"), ("later", "later")]


def _edit_then_prompt(ctx: PlanContext) -> list[OutboxItem]:
    """A command's plan whose decoration row comes first in its chat."""
    seq = ctx.first_seq
    edit = OutboxItem(
        f"g{ctx.game_id}:e{seq}:index",
        ctx.chat_id,
        payload={"op": "edit", "target": "index", "text": "told", "decoration": True},
    )
    return [edit, OutboxItem(f"g{ctx.game_id}:e{seq}:prompt", ctx.chat_id, payload={"text": "act"})]


async def test_a_command_claims_the_row_to_act_on_before_its_decoration(store: Store) -> None:
    game = await new_game(store)
    await _drain(store, NOW)  # the lobby's and the start's rows
    store.claim_for = "w"
    admin: dict[str, Any] = {"actor": 1, "actor_is_admin": True}
    paused = await store.execute(game.game_id, cmd.PauseGame(**admin), NOW, _edit_then_prompt)
    [claimed] = paused.handoff.rows
    assert claimed.key.endswith(":prompt") and paused.handoff.held == {CHAT}
    await store.outbox.mark_sent(claimed.id, 5, NOW)
    # The next command's own rows queue behind the edit: they too go first.
    resumed = await store.execute(game.game_id, cmd.ResumeGame(**admin), NOW, _edit_then_prompt)
    [claimed] = resumed.handoff.rows
    assert claimed.key.endswith(":prompt")
    await store.outbox.mark_sent(claimed.id, 6, NOW)
    assert await _drain(store, NOW) == [paused.handoff.rows[0].key.replace("prompt", "index")]
