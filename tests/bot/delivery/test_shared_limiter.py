"""The outbound limiter shared by several workers, in Redis and in PostgreSQL: two limiter
instances (two workers) taking turns keep every limit together, a 429 pauses the chat for
both, and the slots of a worker that died mid-send free after their horizon."""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator, Callable, Iterator

import pytest
import redis.asyncio as aioredis
from redis.exceptions import ConnectionError as RedisConnectionError

from bot.delivery.limiter import LimiterUnavailable, Limits, OutboundLimiter, Reservation
from bot.delivery.pg_limiter import PostgresLimiter
from bot.delivery.redis_limiter import RedisLimiter
from storage.migrate import upgrade
from tests.bot.delivery.test_limiter import GROUP, OTHER_GROUP, PERSON, FakeClock, simulate
from tests.support.postgres import create_pg_database, drop_pg_database
from tests.support.services import unreachable
from tests.support.windows import most_in_a_window

REDIS_URL = os.environ.get("WHODUNIT_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
Make = Callable[[Limits, FakeClock], OutboundLimiter]


class TakingTurns:
    """Two workers' limiters answering alternate requests (each releases its own)."""

    def __init__(self, first: OutboundLimiter, second: OutboundLimiter) -> None:
        self.workers = [first, second]
        self.turn = 0
        self.owner: dict[int, OutboundLimiter] = {}
        self.clock = first.clock

    async def reserve(self, chat_id: int, count: int = 1) -> Reservation | float:
        self.turn += 1
        worker = self.workers[self.turn % 2]
        taken = await worker.reserve(chat_id, count)
        if isinstance(taken, Reservation):
            self.owner[id(taken)] = worker
        return taken

    async def release(self, reservation: Reservation) -> None:
        await self.owner.pop(id(reservation)).release(reservation)

    async def pause(self, chat_id: int, seconds: float) -> None:
        await self.workers[0].pause(chat_id, seconds)

    async def close(self) -> None:
        for worker in self.workers:
            await worker.close()


async def _redis_up() -> None:
    client = aioredis.Redis.from_url(REDIS_URL)
    try:
        await client.ping()
    except (RedisConnectionError, OSError) as error:
        unreachable(f"Redis unreachable at {REDIS_URL}: {error!r}")
    finally:
        await client.aclose()


@pytest.fixture(params=["redis", "postgres"])
def shared_store(request: pytest.FixtureRequest) -> Iterator[str]:
    """ "redis", or the URL of a fresh, empty PostgreSQL database."""
    if request.param == "redis":
        yield "redis"
        return
    request.getfixturevalue("pg_server")
    url = create_pg_database()
    try:
        yield url
    finally:
        drop_pg_database(url)


@pytest.fixture
async def make(shared_store: str) -> AsyncIterator[Make]:
    """Builds limiters of one kind that share their state (this test's own keys/database)."""
    made: list[OutboundLimiter] = []
    namespace = f"test-{uuid.uuid4().hex[:8]}"
    if shared_store == "redis":
        await _redis_up()
    else:
        await upgrade(shared_store)

    def build(limits: Limits, clock: FakeClock) -> OutboundLimiter:
        limiter: OutboundLimiter
        if shared_store == "redis":
            limiter = RedisLimiter(limits, clock, REDIS_URL, horizon=10.0, namespace=namespace)
        else:
            limiter = PostgresLimiter(limits, clock, shared_store, horizon=10.0)
        made.append(limiter)
        return limiter

    yield build
    for limiter in made:
        await limiter.close()


async def test_two_workers_keep_the_bot_wide_limit_together(make: Make) -> None:
    clock = FakeClock()
    limits = Limits()
    both = TakingTurns(make(limits, clock), make(limits, clock))
    wanted = [(1_000.0, person) for person in range(1, 101)]
    wanted += [(1_000.0 + n * 0.2, GROUP) for n in range(30)]
    sent = await simulate(both, clock, wanted)
    assert len(sent) == len(wanted)
    assert most_in_a_window([s.started for s in sent], 1.0) == 30
    assert most_in_a_window([s.answered for s in sent], 1.0) == 30
    group = [s for s in sent if s.chat == GROUP]
    assert most_in_a_window([s.started for s in group], 60.0) == 20
    # The 21st group post waits for the first one's minute, from Telegram's answer.
    assert group[20].started == pytest.approx(group[0].answered + 60.0)


async def test_a_429_seen_by_one_worker_pauses_the_chat_for_the_other(make: Make) -> None:
    clock = FakeClock()
    first, second = make(Limits(), clock), make(Limits(), clock)
    await first.pause(GROUP, 30.0)
    assert await second.reserve(GROUP) == pytest.approx(30.0)
    assert isinstance(await second.reserve(OTHER_GROUP), Reservation)
    clock.at += 30.0
    assert isinstance(await second.reserve(GROUP), Reservation)


async def test_slots_of_a_worker_that_died_mid_send_free_after_their_horizon(
    make: Make,
) -> None:
    clock = FakeClock()
    limits = Limits(private_count=1, private_window=1.0)
    dead, alive = make(limits, clock), make(limits, clock)
    assert isinstance(await dead.reserve(PERSON), Reservation)  # never answered, never released
    clock.at += 5.0
    assert await alive.reserve(PERSON) == pytest.approx(1.0)  # in flight: asks again later
    clock.at += 6.0  # horizon (10 s) and window (1 s) passed
    taken = await alive.reserve(PERSON)
    assert isinstance(taken, Reservation)
    taken.stamp(clock.at)
    await alive.release(taken)
    clock.at += 0.5
    assert await dead.reserve(PERSON) == pytest.approx(0.5)  # the answered slot counts


async def test_unused_slots_come_back_to_every_worker(make: Make) -> None:
    clock = FakeClock()
    limits = Limits(group_count=2)
    first, second = make(limits, clock), make(limits, clock)
    taken = await first.reserve(GROUP, 2)
    assert isinstance(taken, Reservation)
    assert await second.reserve(GROUP) == pytest.approx(60.0)
    taken.stamp(clock.at)  # one part sent; the other never was
    await first.release(taken)
    assert isinstance(await second.reserve(GROUP), Reservation)
    assert await second.reserve(GROUP) == pytest.approx(60.0)


async def test_an_unreachable_redis_is_a_limiter_error() -> None:
    limiter = RedisLimiter(Limits(), FakeClock(), "redis://127.0.0.1:1/0")
    with pytest.raises(LimiterUnavailable):
        await limiter.reserve(PERSON)
    await limiter.close()
