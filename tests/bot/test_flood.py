"""One member floods a group while another group plays: the players wait no longer, the
flooded group gets a few posts, and the flooder one notice."""

from __future__ import annotations

import statistics
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.config import BotConfig
from tests.bot.conftest import Table
from tests.bot.harness import BotHarness, Clock, bot_messages, database_url
from tests.bot.play import card_name, naming, open_and_start, state
from tests.fakebot import FakeGroup, FakeTelegram, FakeUser

FLOOD_SETTINGS = (
    "flood_group_limit",
    "flood_private_limit",
    "flood_window_seconds",
    "flood_group_sustained_limit",
    "flood_long_window_seconds",
    "flood_cooldown_seconds",
)
NOTICE = "too many commands at once"


@pytest.fixture
async def guarded(server: FakeTelegram, tmp_path: Path) -> AsyncIterator[Table]:
    """The usual table, with the bot's default per-person limits switched on."""
    alice = server.add_user("Alice", username="alice")
    bob = server.add_user("Bob", username="bob")
    carol = server.add_user("Carol", username="carol")
    dave = server.add_user("Dave", username="dave")
    group = server.add_group(
        "Cluedo club", admins=[alice], members=[bob, carol, dave], bot_admin=True
    )
    defaults = {name: BotConfig.model_fields[name].default for name in FLOOD_SETTINGS}
    harness = BotHarness(server, database_url(tmp_path), Clock(), settings=defaults)
    await harness.start()
    try:
        yield Table(server, harness, group, alice, bob, carol, dave)
    finally:
        await harness.stop()


async def _until(table: Table, condition: Callable[[], Any], began: float) -> float:
    await table.server.wait_for(condition, timeout=60)
    return time.perf_counter() - began


async def _move(
    table: Table, suggester: FakeUser, target: FakeUser, flood: Callable[[], None]
) -> list[float]:
    """A typed suggestion and the target's answer: seconds from each update to the last
    message it owes (the group post and the target's prompt; the suggester's card and
    the group's answer post)."""
    game_id = (await table.bot.services.store.game_for_chat(table.group.id, 0)).id  # type: ignore[union-attr]
    game = await state(table, game_id)
    seat = game.player_of(target.id)
    assert seat is not None
    held = seat.hand[0]
    typed = f"/suggest @{target.username} " + "; ".join(card_name(c) for c in naming(game, held))
    posts = len(bot_messages(table.group))
    prompts = len(target.private_messages())
    flood()
    began = time.perf_counter()
    suggester.send(table.group, typed)
    asked = await _until(
        table,
        lambda: (
            len(bot_messages(table.group)) > posts
            and any(m.buttons for m in target.private_messages()[prompts:])
        ),
        began,
    )
    prompt = next(m for m in target.private_messages()[prompts:] if m.buttons)
    posts = len(bot_messages(table.group))
    cards = len(suggester.private_messages())
    flood()
    began = time.perf_counter()
    await target.press(prompt, card_name(held), timeout=60)
    answered = await _until(
        table,
        lambda: (
            len(bot_messages(table.group)) > posts
            and any("shows you" in m.text for m in suggester.private_messages()[cards:])
        ),
        began,
    )
    return [asked, answered]


def _flooder(mallory: FakeUser, group: FakeGroup, commands: int, chunks: int) -> Callable[[], None]:
    """Each call sends the next share of `commands` commands (/pause and /status by turns)."""
    sent = 0
    share = -(-commands // chunks)

    def flood() -> None:
        nonlocal sent
        for _ in range(min(share, commands - sent)):
            mallory.send(group, "/pause" if sent % 2 == 0 else "/status")
            sent += 1

    return flood


async def test_a_flood_in_one_group_does_not_slow_another_groups_game(guarded: Table) -> None:
    table = guarded
    mallory = table.server.add_user("Mallory", username="mallory")
    owner = table.server.add_user("Olga", username="olga")
    flooded = table.server.add_group(
        "Quiet corner", admins=[owner], members=[mallory], bot_admin=True
    )
    await open_and_start(table)
    quiet: list[float] = []
    for target in (table.carol, table.dave, table.alice):
        quiet += await _move(table, table.bob, target, lambda: None)
    await table.bot.settle()

    flood = _flooder(mallory, flooded, commands=200, chunks=6)
    flooded_moves: list[float] = []
    for target in (table.dave, table.alice, table.bob):
        flooded_moves += await _move(table, table.carol, target, flood)
    await table.bot.settle()

    print(
        f"\nmove latency, median of {len(quiet)}: "
        f"without a flood {statistics.median(quiet) * 1000:.0f} ms, "
        f"with 200 commands flooding another group {statistics.median(flooded_moves) * 1000:.0f} ms"
    )
    from_bot = bot_messages(flooded)
    print(f"posts in the flooded group: {len(from_bot)}")
    limit = BotConfig.model_fields["flood_group_limit"].default
    assert len(from_bot) <= limit + 1, [m.text for m in from_bot]
    notices = [m for m in from_bot + mallory.private_messages() if NOTICE in m.text]
    assert len(notices) == 1
    assert not table.server.calls_to("getChatMember")
    admin_lists = [
        c
        for c in table.server.calls_to("getChatAdministrators")
        if int(c.params["chat_id"]) == flooded.id
    ]
    assert len(admin_lists) == 1
