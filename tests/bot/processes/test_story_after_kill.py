"""Nothing the GM owes is lost to a crash: the real bot killed (SIGKILL) right after a
winning accusation is judged, before the game's story is composed (the killed process
never composes one: tests/support/stalled_story.py), tells the story once after the
restart; and the same with two webhook workers on PostgreSQL, both killed and both
restarted at once, racing over it."""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

from fakebot import FakeTelegramClient, RemoteGroup
from storage.migrate import upgrade
from storage.service import Store
from tests.support.postgres import create_pg_database, drop_pg_database
from tests.support.processes import bot_env, club_of_three
from tests.support.story_kill import (
    STORY,
    play_to_a_right_accusation,
    stalled_command,
    stalled_env,
    stories,
    story_status,
    wait_post,
)
from tests.support.workers import RoundRobin, Worker, free_port

TOKEN = "123:ABC"
SECRET = "story-secret"
SETTLE = 3.0  # seconds after the story in which a second copy would have come


@pytest.fixture
def pg_url(pg_server: str) -> Iterator[str]:
    url = create_pg_database()
    try:
        yield url
    finally:
        drop_pg_database(url)


async def _polling(fake: FakeTelegramClient, starts: int) -> bool:
    return len(await fake.calls("deleteWebhook")) >= starts


async def _told_once(
    fake: FakeTelegramClient, group: RemoteGroup, store: Store, game_id: int
) -> None:
    """The story is posted, and no second copy follows within SETTLE seconds."""
    await wait_post(fake, group, STORY)
    await asyncio.sleep(SETTLE)
    assert await stories(group) == 1, "the story told once"
    assert await story_status(store, game_id) == "sent"


@pytest.mark.slow
async def test_a_bot_killed_between_the_end_and_the_story_tells_it_once_after_restart(
    tmp_path: Path,
) -> None:
    fake = await FakeTelegramClient.launch(TOKEN)
    url = f"sqlite:///{tmp_path}/bot.db"
    env = bot_env(TOKEN, fake.base_url, url, WHODUNIT_SWEEP_SECONDS="1")
    first = Worker(stalled_env(env), tmp_path, tmp_path / "first.log", 0, command=stalled_command())
    second = Worker(env, tmp_path, tmp_path / "second.log", 0)
    store: Store | None = None
    try:
        await first.start()
        await fake.wait_for(lambda: _polling(fake, 1), timeout=60)
        await second.warm()  # imported while the first plays; it runs on `start`
        alice, bob, carol, group = await club_of_three(fake, bot_admin=True)
        store = await Store.open(url, migrate=False)
        game_id = await play_to_a_right_accusation(fake, group, [alice, bob, carol], store)
        assert await story_status(store, game_id) == "owed", "written with the end"

        await first.signal(signal.SIGKILL)
        assert await stories(group) == 0
        await second.start()
        await _told_once(fake, group, store, game_id)
    finally:
        if store is not None:
            await store.close()
        code = await second.stop()
        await first.stop()  # killed already, unless the test failed before
        await fake.aclose()
    assert code == 0, second.tail()


@pytest.mark.slow
async def test_two_workers_killed_between_the_end_and_the_story_tell_it_once(
    pg_url: str, tmp_path: Path
) -> None:
    await upgrade(pg_url)
    fake = await FakeTelegramClient.launch(TOKEN, extra_args=["--allow-http-webhooks"])
    proxy = RoundRobin([free_port(), free_port()])
    await proxy.start()
    env = bot_env(
        TOKEN,
        fake.base_url,
        pg_url,
        WHODUNIT_WEBHOOK_URL=proxy.url,
        WHODUNIT_WEBHOOK_SECRET=SECRET,
        WHODUNIT_SWEEP_SECONDS="1",
        WHODUNIT_SHARED_LIMITER="true",
    )
    stalled = [
        Worker(
            stalled_env(env),
            tmp_path,
            tmp_path / f"stalled{n}.log",
            port,
            command=stalled_command(),
        )
        for n, port in enumerate(proxy.ports)
    ]
    workers = [
        Worker(env, tmp_path, tmp_path / f"worker{n}.log", port)
        for n, port in enumerate(proxy.ports)
    ]
    store: Store | None = None
    try:
        for worker in stalled:
            await worker.start()
        await asyncio.gather(*(w.ready() for w in stalled))
        for worker in workers:  # imported while the stalled ones play; run on `start`
            await worker.warm()
        alice, bob, carol, group = await club_of_three(fake, bot_admin=True)
        store = await Store.open(pg_url, migrate=False)
        game_id = await play_to_a_right_accusation(fake, group, [alice, bob, carol], store)
        assert await story_status(store, game_id) == "owed", "written with the end"

        for worker in stalled:
            await worker.signal(signal.SIGKILL)
        assert await stories(group) == 0
        for worker in workers:  # both at once: they race over the story
            await worker.start()
        await asyncio.gather(*(w.ready() for w in workers))
        await _told_once(fake, group, store, game_id)
    finally:
        if store is not None:
            await store.close()
        codes = [await w.stop() for w in workers]
        for worker in stalled:  # killed already, unless the test failed before
            await worker.stop()
        await proxy.stop()
        await fake.aclose()
    assert codes == [0, 0], [w.tail() for w in workers]
