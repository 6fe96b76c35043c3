"""Telegram's limits at the fake Bot API: 20 games at once, two sender tasks sharing one
limiter, posts counted per group per window."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from bot.delivery.sender import Sender
from engine import commands as cmd
from engine.cards import Category
from engine.settings import Settings
from fakebot import FakeTelegram
from tests.support.harness import BotHarness, database_url
from tests.support.windows import most_in_a_window

GROUPS, TOPICS = 4, 5  # 20 games: five forum topics in each of four groups
WINDOW = 3.0  # seconds: the production count (20) in a shorter window than 60 s
REPLIES = 4  # answers to commands per game, queued like a handler's
COUNTED = ("sendMessage", "editMessageText")


@pytest.mark.slow
async def test_twenty_games_never_put_more_than_twenty_posts_in_any_window(
    server: FakeTelegram, tmp_path: Path
) -> None:
    harness = BotHarness(
        server,
        database_url(tmp_path),
        None,
        sweep_seconds=1.0,
        settings={
            "group_messages_per_minute": 20,
            "group_window_seconds": WINDOW,
            "private_messages_per_second": 1,
            "messages_per_second": 30,
        },
    )
    await harness.start()
    first: Sender = harness.app.bot_data["sender"]
    second = Sender(harness.services, harness.app.bot, "second sender", first.limiter)
    stop = asyncio.Event()
    second_task = asyncio.create_task(second.run(stop))  # two senders, one limiter
    try:
        began = time.time()
        groups = []
        for g in range(GROUPS):
            people = [server.add_user(f"P{g}x{n}", username=f"p{g}x{n}") for n in range(4)]
            for person in people:
                person.start_bot()
            group = server.add_group(f"Club {g}", forum=True, admins=people[:1], members=people)
            topics = [group.add_topic(f"Table {t}") for t in range(TOPICS)]
            groups.append(group)
            for n, topic in enumerate(topics):
                await _play(harness, group.id, topic.thread_id, [p.id for p in people], g * 10 + n)
        await _delivered(harness, timeout=240)
        elapsed = time.time() - began
    finally:
        stop.set()
        await second_task
        await harness.stop()
    worst = 0
    for group in groups:
        moments = [
            c.at
            for c in server.calls
            if c.method in COUNTED and c.ok and str(c.params.get("chat_id")) == str(group.id)
        ]
        assert len(moments) > 40, "many more posts in each group than one window allows"
        most = most_in_a_window(moments, WINDOW)
        worst = max(worst, most)
        print(f"\n{group.title}: {len(moments)} posts and edits, at most {most} in {WINDOW} s")
        assert most <= 20
    assert first.mark_window and second.mark_window, "both senders delivered"
    everything = [c.at for c in server.calls if c.method in COUNTED and c.ok]
    print(
        f"all {len(everything)} in {elapsed:.1f} s; worst group window {worst}/20; "
        f"at most {most_in_a_window(everything, 1.0)} a second overall"
    )
    assert most_in_a_window(everything, 1.0) <= 30


async def _delivered(harness: BotHarness, timeout: float) -> None:
    """Wait until no message is owed (rows waiting for their slot included)."""
    deadline = time.monotonic() + timeout
    while set(await harness.services.store.outbox.counts()) - {"sent"}:
        assert time.monotonic() < deadline, await harness.services.store.outbox.counts()
        await asyncio.sleep(0.2)


async def _play(
    harness: BotHarness, chat_id: int, topic: int, people: list[int], seed: int
) -> None:
    """A lobby, three joins, the start, a suggestion, replies to commands and the end."""
    services = harness.services
    opening = cmd.OpenLobby(actor=people[0], seed=seed, settings=Settings(auto_no_refutation=False))
    outcome = await services.create(chat_id, topic, opening)
    game_id = outcome.game_id
    for person in people[1:]:
        await services.run(game_id, cmd.JoinLobby(actor=person))
    outcome = await services.run(game_id, cmd.StartGame(actor=people[0]))
    game = outcome.state
    await services.run(
        game_id,
        cmd.MakeSuggestion(
            actor=people[0],
            target=people[1],
            suspect=game.in_play(Category.SUSPECT)[0],
            weapon=game.in_play(Category.WEAPON)[0],
            place=game.in_play(Category.PLACE)[0],
        ),
    )
    for n in range(REPLIES):
        await services.tell(chat_id, "settings.line", {"name": "n", "value": n}, topic_id=topic)
    await services.run(game_id, cmd.EndGame(actor=people[0], actor_is_admin=True))
