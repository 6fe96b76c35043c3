"""Two real `whodunit run` webhook workers on one PostgreSQL database behind a round-robin
proxy, 50 games played at once: every game ends right (its accusation judged by a
deadline, once), no event or message lost or doubled, each chat's messages in order, and
the bot-wide send rate at the fake never above the configured limit. Mid-load one worker
gets SIGTERM (exits 0 in time, restarted), later the other SIGKILL (its claims wait for
their leases; the proxy sends its updates to the survivor)."""

from __future__ import annotations

import asyncio
import json
import signal
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from engine.state import Phase
from fakebot import FakeTelegramClient
from storage.migrate import upgrade
from storage.models import EventRecord, OutboxRecord, OutboxStatus
from storage.service import Store
from tests.support.crashes import doubles
from tests.support.postgres import create_pg_database, drop_pg_database
from tests.support.processes import bot_env
from tests.support.workers import RoundRobin, Table, Worker, free_port

TOKEN = "123:ABC"
SECRET = "workers-secret"
# 50 games press every bound that 100 did: the bot-wide limit is reached (the busiest second
# counts 30 sends either way: the rows the killed worker held all fall due when its leases
# end), both workers take updates, the SIGTERM and the SIGKILL land mid-load. Half the games
# halve the work of the test, not what it checks.
GAMES = 50
LIMIT = 30  # the bot-wide messages per second: the default, Telegram's own limit
SHUTDOWN = 10.0  # WHODUNIT_SHUTDOWN_SECONDS
WINDOW_BOUND = 5.0  # seconds around the SIGKILL in which a double may come (send-to-mark)


@pytest.fixture
def pg_url(pg_server: str) -> Iterator[str]:
    url = create_pg_database()
    try:
        yield url
    finally:
        drop_pg_database(url)


async def _when(count: int, tables: list[Table], step: str) -> None:
    while sum(step in t.steps for t in tables) < count:
        await asyncio.sleep(0.2)


@pytest.mark.slow
async def test_two_webhook_workers_share_fifty_games_and_survive_term_and_kill(
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
        WHODUNIT_MESSAGES_PER_SECOND=str(LIMIT),
        WHODUNIT_SEND_TIMEOUT_SECONDS="5",
        WHODUNIT_SHUTDOWN_SECONDS=str(SHUTDOWN),
        WHODUNIT_SWEEP_SECONDS="1",
        WHODUNIT_SHARED_LIMITER="true",  # two workers from the start, as deploy/compose.yaml
        WHODUNIT_WEBHOOK_MAX_CONNECTIONS="100",
    )
    workers = [
        Worker(env, tmp_path, tmp_path / f"worker{n}.log", port)
        for n, port in enumerate(proxy.ports)
    ]
    store: Store | None = None
    started = time.time()
    try:
        for worker in workers:
            await worker.start()
        await asyncio.gather(*(w.ready() for w in workers))
        store = await Store.open(pg_url, migrate=False)
        tables = [await Table.open(fake, n) for n in range(GAMES)]
        await asyncio.gather(*(t.greet() for t in tables))
        phases = {"greeted": time.time() - started}

        starting = asyncio.gather(*(t.start_game(store) for t in tables))
        await _when(GAMES // 3, tables, "started")
        await workers[0].warm()  # its successor, imported ahead: it runs on `start`
        code, took = await workers[0].signal(signal.SIGTERM)
        assert code == 0, workers[0].tail()
        assert took <= SHUTDOWN, f"SIGTERM took {took:.1f} s"
        await workers[0].start()
        await workers[0].ready()
        await starting
        phases["started"] = time.time() - started

        ending = asyncio.gather(*(t.accuse_rightly(store) for t in tables))
        await asyncio.sleep(3.0)  # accusations under way, their windows open
        killed_at = time.time()
        await workers[1].signal(signal.SIGKILL)
        games = await ending
        phases["ended"] = time.time() - started
        await _settled(store)
        phases["settled"] = time.time() - started
        print(f"\nphases (s since start): {phases}")

        for table, game in zip(tables, games, strict=True):
            accuser = game.player_of(table.players[0].id)
            assert game.phase is Phase.ENDED and accuser is not None
            assert game.winner == accuser.seat, f"game {table.game_id}"
        await _events_once(store, [t.game_id for t in tables])
        sends = await fake.calls("sendMessage")
        extra = doubles(sends)
        # A double needs the SIGKILL between its copies, near the first copy's answer (the
        # killed worker's send not yet marked); the SIGTERM must double nothing.
        far = [
            (round(f["at"] - killed_at, 2), round(c["at"] - killed_at, 2), f["params"]["text"][:60])
            for f, c in extra
            if abs(killed_at - f["at"]) > WINDOW_BOUND or c["at"] < killed_at
        ]
        assert not far, f"doubles (s from the SIGKILL: first copy, extra copy) not its: {far}"
        await _none_lost_and_in_order(store, sends)
        most = await fake.max_send_rate(1.0, since=started)
        print(
            f"\n{GAMES} games, 2 workers: {len(sends)} sends, most in any second {most} "
            f"(limit {LIMIT}), updates per worker {proxy.taken}, SIGTERM exit in {took:.1f} s, "
            f"doubles after SIGKILL {len(extra)}, {time.time() - started:.0f} s in all"
        )
        assert most <= LIMIT
        assert all(n > 0 for n in proxy.taken.values()), proxy.taken
    finally:
        if store is not None:
            await store.close()
        codes = [await w.stop() for w in workers]
        await proxy.stop()
        await fake.aclose()
    assert codes[0] == 0, workers[0].tail()


async def _settled(store: Store, timeout: float = 180.0) -> None:
    """Every owed message sent (a killed worker's claims come back after their lease)."""
    deadline = time.monotonic() + timeout
    while True:
        counts = await store.outbox.counts()
        open_ = {k: v for k, v in counts.items() if k is not OutboxStatus.SENT and v}
        if not open_:
            return
        assert time.monotonic() < deadline, f"messages still owed: {open_}"
        await asyncio.sleep(0.5)


async def _events_once(store: Store, game_ids: list[int]) -> None:
    """Each game's events numbered 1..n without a gap; one accusation judged, one end."""
    e = EventRecord
    query = (
        select(e.game_id, e.type, func.count(), func.max(e.seq))
        .where(e.game_id.in_(game_ids))
        .group_by(e.game_id, e.type)
    )
    rows = await store.db.run_read(lambda conn: conn.execute(query).all())
    per_game: dict[int, Counter[str]] = defaultdict(Counter)
    top: dict[int, int] = defaultdict(int)
    for game_id, kind, count, last in rows:
        per_game[game_id][kind] += count
        top[game_id] = max(top[game_id], last)
    for game_id in game_ids:
        kinds = per_game[game_id]
        assert sum(kinds.values()) == top[game_id], f"game {game_id}: a gap in its events"
        for once in ("GameStarted", "AccusationMade", "AccusationJudged", "GameEnded"):
            assert kinds[once] == 1, f"game {game_id}: {once} x{kinds[once]}"


async def _none_lost_and_in_order(store: Store, sends: list[dict[str, Any]]) -> None:
    """Every sent row's message is at the fake; in each chat, later rows got later ids."""
    o = OutboxRecord
    query = select(o.id, o.chat_id, o.payload, o.sent_message_id).where(
        o.status == OutboxStatus.SENT
    )
    rows = await store.db.run_read(lambda conn: conn.execute(query).all())
    delivered = {
        (c["params"]["chat_id"], c["response"]["result"]["message_id"])
        for c in sends
        if c["status"] == 200
    }
    per_chat: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for row_id, chat_id, payload, message_id in rows:
        if json.loads(payload).get("op") == "edit" or not message_id:
            continue  # an edit, or nothing to send (reminders off)
        assert (chat_id, message_id) in delivered, f"row {row_id} not at the fake"
        per_chat[chat_id].append((row_id, message_id))
    for chat_id, sent in per_chat.items():
        ids = [message_id for _, message_id in sorted(sent)]
        assert ids == sorted(ids), f"chat {chat_id}: messages out of order"
