"""Play before decoration through the fake Bot API: a forum group at Telegram's limit, twenty
posts waiting; an index edit queued, then a suggestion its target must answer. The
suggestion reaches the group before the index's edit."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from fakebot import FakeTelegram
from tests.support.harness import BotHarness, Party, database_url
from tests.support.play import card_name, naming, open_and_start, state

WINDOW = 2.0  # seconds: Telegram's 20 posts a group, in a shorter window than 60 s
WAITING = 20


@pytest.mark.slow
async def test_a_suggestion_queued_after_an_index_edit_goes_first(
    server: FakeTelegram, tmp_path: Path
) -> None:
    people = [
        server.add_user(name, username=name.lower(), language_code="en")
        for name in ("Alice", "Bob", "Carol", "Dave")
    ]
    group = server.add_group("Cluedo club", admins=people[:1], members=people[1:], bot_admin=True)
    limits = {"group_messages_per_minute": 20, "group_window_seconds": WINDOW}
    harness = BotHarness(server, database_url(tmp_path), None, sweep_seconds=1.0, settings=limits)
    await harness.start()
    try:
        table = Party(server, harness, group, *people)
        game_id = await open_and_start(table)
        game = await state(table, game_id)
        await _delivered(harness, timeout=30)
        for n in range(WAITING):  # the group at its limit, with twenty posts to go
            await harness.services.tell(group.id, "settings.line", {"name": "n", "value": n})
        carol = game.player_of(table.carol.id)
        assert carol is not None
        named = "; ".join(card_name(c) for c in naming(game, carol.hand[0]))
        # Sent at once, not waiting for the posts: the extension's post and the index's
        # edit, then the suggestion, are queued while the twenty wait for their slots.
        table.alice.send(group, "/extend 1h")
        table.bob.send(group, f"/suggest @carol {named}")
        await harness.settle(timeout=30)  # both handled
        await _delivered(harness, timeout=60)
    finally:
        await harness.stop()
    calls = [c for c in server.calls if c.ok and str(c.params.get("chat_id")) == str(group.id)]
    texts = [str(c.params.get("text", "")) for c in calls]
    extended = next(i for i, text in enumerate(texts) if "was extended" in text)
    suggestion = next(i for i, text in enumerate(texts) if "Suggestion 1 for @carol" in text)
    edit = next(
        i
        for i, c in enumerate(calls)
        if i > extended and c.method == "editMessageText" and "Game index" in texts[i]
    )
    assert extended < suggestion < edit, [
        (c.method, t[:40]) for c, t in zip(calls, texts, strict=True)
    ]
    told = [i for i, text in enumerate(texts) if text.startswith("• n: ")]
    assert len(told) == WAITING and max(told) < extended, "the twenty went first, in order"


async def _delivered(harness: BotHarness, timeout: float) -> None:
    """Wait until no message is owed (rows waiting for their slot included)."""
    deadline = time.monotonic() + timeout
    while set(await harness.services.store.outbox.counts()) - {"sent"}:
        assert time.monotonic() < deadline, await harness.services.store.outbox.counts()
        await asyncio.sleep(0.1)
