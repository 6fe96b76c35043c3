"""A real bot process killed with SIGKILL before a day ends, started again after the end:
the day ends exactly once, with no penalty for the bot's absence, nothing lost or doubled."""

from __future__ import annotations

import asyncio
import signal
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import text

from fakebot import FakeTelegramClient, RemoteGroup, RemoteMessage
from storage.service import Store
from tests.support.play import card_name, naming
from tests.support.processes import bot_env, club_of_three, go, start_bot, stop_bot, warm_bot

TOKEN = "123:ABC"


async def _bot_posts(group: RemoteGroup) -> list[RemoteMessage]:
    return [m for m in await group.messages() if m.from_user_id == 1000]


async def _wait_post(fake: FakeTelegramClient, group: RemoteGroup, text: str, timeout: float):  # type: ignore[no-untyped-def]
    async def found():  # type: ignore[no-untyped-def]
        return [m for m in await _bot_posts(group) if text in m.text]

    return await fake.wait_for(found, timeout)


async def _until_all_marked(url: str, timeout: float = 15.0) -> None:
    """Wait until every outbox row is finished: what was sent is marked sent (delivery is
    at least once: a kill between Telegram's answer and the mark sends that message again)."""
    store = await Store.open(url, migrate=False)
    query = text("SELECT count(*) FROM outbox WHERE status IN ('pending', 'claimed')")
    try:
        for _ in range(int(timeout / 0.05)):
            if not await store.db.run_read(lambda conn: conn.execute(query).scalar()):
                return
            await asyncio.sleep(0.05)
    finally:
        await store.close()
    raise AssertionError("the bot left messages unsent")


@pytest.mark.slow
async def test_sigkill_before_the_day_ends_and_restart_after(tmp_path: Path) -> None:
    fake = await FakeTelegramClient.launch(TOKEN)
    url = f"sqlite:///{tmp_path}/bot.db"
    env = bot_env(TOKEN, fake.base_url, url, WHODUNIT_SWEEP_SECONDS="1")
    first = await start_bot(env, tmp_path)
    second = None
    try:
        await fake.wait_for(lambda: _polling(fake), timeout=30)
        alice, bob, carol, group = await club_of_three(fake, bot_admin=True)
        await alice.send(group, "/settings day_length 1m")
        await _wait_post(fake, group, "Saved", 15)
        await alice.send(group, "/newgame")
        (lobby,) = await _wait_post(fake, group, "new game of Cluedo", 15)
        for person in (bob, carol):
            await person.press(lobby, "Join")
        await alice.press(lobby, "Start the game")
        await _wait_post(fake, group, "Day 1 begins", 15)
        for person in (alice, bob, carol):
            await person.wait_private(lambda m: "Your cards" in m.text, timeout=15)

        store = await Store.open(url, migrate=False)
        try:
            ref = await store.game_for_chat(group.id, 0)
            assert ref is not None
            game = await store.load(ref.id)
        finally:
            await store.close()
        seat = game.player_of(carol.id)
        assert seat is not None and game.day_ends_at is not None
        named = "; ".join(card_name(c) for c in naming(game, seat.hand[0]))
        await bob.send(group, "/suggest @carol " + named)
        await _wait_post(fake, group, "Suggestion 1 for @carol", 15)
        await _until_all_marked(url)  # else a kill between a send and its mark resends it

        first.send_signal(signal.SIGKILL)  # Carol stays silent; the bot dies mid-day
        await first.wait()
        seconds_left = (game.day_ends_at - datetime.now(UTC)).total_seconds()
        assert seconds_left > 5, "the bot must die before the day ends"
        second = await warm_bot(env, tmp_path)  # imported meanwhile; it runs on `go`
        await asyncio.sleep(max(0.0, (game.day_ends_at - datetime.now(UTC)).total_seconds()) + 1)

        await go(second)
        await _wait_post(fake, group, "Day 2 begins", 30)
        await asyncio.sleep(3)  # anything doubled would arrive by now
        posts = [m.text for m in await _bot_posts(group)]
        counts = Counter(posts)
        assert [t for t, n in counts.items() if n > 1] == [], "a message was sent twice"
        assert sum("Day 1 is over" in t for t in posts) == 1
        assert sum("Day 2 begins" in t for t in posts) == 1
        assert sum("I was offline" in t for t in posts) == 1
        assert sum("'s suggestion 1 for" in t and "The GM refuted" in t for t in posts) == 1
        assert not any("did not answer in time" in t for t in posts), "no penalty"
        shown = [m for m in await bob.private_messages() if "The GM shows you" in m.text]
        assert len(shown) == 1 and card_name(seat.hand[0]) in shown[0].text

        store = await Store.open(url, migrate=False)
        try:
            game = await store.load(ref.id)
            counts_by_status = await store.outbox.counts()
        finally:
            await store.close()
        assert game.day == 2 and game.quota_left(game.players[seat.seat]) == 3
        assert set(counts_by_status) == {"sent"}, counts_by_status
    finally:
        output = await stop_bot(first)
        if second is not None:
            output += await stop_bot(second)
        await fake.aclose()
    assert second is not None and second.returncode == 0, output


async def _polling(fake: FakeTelegramClient) -> bool:
    return bool(await fake.calls("deleteWebhook"))
