"""The outbound limiter on a fake clock: Telegram's real limits, in any sliding window."""

from __future__ import annotations

import asyncio
import heapq
import itertools
from dataclasses import dataclass

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.delivery.limiter import Limits, OutboundLimiter, Reservation, SlidingWindowLimiter
from tests.support.windows import most_in_a_window

GROUP, OTHER_GROUP, PERSON, OTHER_PERSON = -100, -200, 7, 8


@dataclass
class FakeClock:
    at: float = 1_000.0

    def __call__(self) -> float:
        return self.at


@dataclass
class Sent:
    chat: int
    started: float
    answered: float


async def simulate(
    limiter: OutboundLimiter,
    clock: FakeClock,
    wanted: list[tuple[float, int]],
    latency: float | list[float] = 0.05,
) -> list[Sent]:
    """Each (moment, chat) asks for a slot; a refusal asks again when told; a granted
    request is answered `latency` later (stamped then). Returns what was sent, in order."""
    latencies = itertools.cycle(latency if isinstance(latency, list) else [latency])
    order = itertools.count()
    events: list[tuple[float, int, int, Reservation | None]] = [
        (at, next(order), chat, None) for at, chat in wanted
    ]
    heapq.heapify(events)
    sent: list[Sent] = []
    while events:
        at, _, chat, granted = heapq.heappop(events)
        clock.at = at
        if granted is not None:  # Telegram's answer arrives
            granted.stamp(at)
            await limiter.release(granted)
            continue
        reservation = await limiter.reserve(chat)
        if isinstance(reservation, Reservation):
            answered = at + next(latencies)
            sent.append(Sent(chat, at, answered))
            heapq.heappush(events, (answered, next(order), chat, reservation))
        else:
            assert reservation > 0
            heapq.heappush(events, (at + reservation, next(order), chat, None))
    return sent


async def test_forty_posts_for_one_group_never_make_more_than_twenty_in_any_minute() -> None:
    clock = FakeClock()
    limiter = SlidingWindowLimiter(Limits(), clock)
    sent = await simulate(limiter, clock, [(1_000.0 + n * 0.5, GROUP) for n in range(40)])
    assert len(sent) == 40
    for moments in ([s.started for s in sent], [s.answered for s in sent]):
        assert most_in_a_window(moments, 60.0) == 20
    # The first 20 go as they come; the 21st waits for the first's minute to pass (from the
    # moment Telegram answered it), not one every 3 s after a burst.
    assert sent[19].started == 1_000.0 + 19 * 0.5
    assert sent[20].started == sent[0].answered + 60.0
    print(f"\n40 posts in one group: the last at +{sent[-1].started - 1_000.0:.2f} s")


async def test_a_busy_group_holds_back_no_other_chat() -> None:
    clock = FakeClock()
    limiter = SlidingWindowLimiter(Limits(), clock)
    wanted = [(1_000.0, GROUP)] * 30 + [(1_001.0, OTHER_GROUP), (1_001.0, PERSON)]
    sent = await simulate(limiter, clock, wanted)
    others = [s for s in sent if s.chat != GROUP]
    assert [s.started for s in others] == [1_001.0, 1_001.0]


async def test_a_private_chat_gets_one_message_a_second() -> None:
    clock = FakeClock()
    limiter = SlidingWindowLimiter(Limits(), clock)
    sent = await simulate(limiter, clock, [(1_000.0, PERSON)] * 5, latency=0.0)
    assert [s.started - 1_000.0 for s in sent] == [0.0, 1.0, 2.0, 3.0, 4.0]


async def test_the_whole_bot_stays_under_thirty_a_second() -> None:
    clock = FakeClock()
    limiter = SlidingWindowLimiter(Limits(), clock)
    sent = await simulate(limiter, clock, [(1_000.0, person) for person in range(1, 101)])
    assert most_in_a_window([s.started for s in sent], 1.0) == 30
    assert most_in_a_window([s.answered for s in sent], 1.0) == 30


async def test_a_pause_after_a_429_concerns_only_its_chat() -> None:
    clock = FakeClock()
    limiter = SlidingWindowLimiter(Limits(), clock)
    await limiter.pause(GROUP, 30.0)
    assert await limiter.reserve(GROUP) == 30.0
    assert isinstance(await limiter.reserve(OTHER_GROUP), Reservation)
    assert isinstance(await limiter.reserve(PERSON), Reservation)
    clock.at += 30.0
    assert isinstance(await limiter.reserve(GROUP), Reservation)


async def test_a_slot_in_flight_never_expires_and_unused_slots_come_back() -> None:
    clock = FakeClock()
    limiter = SlidingWindowLimiter(Limits(group_count=2), clock)
    first = await limiter.reserve(GROUP, 2)
    assert isinstance(first, Reservation)
    clock.at += 120.0  # no answer yet: both slots still count
    assert await limiter.reserve(GROUP) == 60.0
    first.stamp(clock.at)  # one part answered; the other was never sent
    await limiter.release(first)
    assert isinstance(await limiter.reserve(GROUP), Reservation)
    assert await limiter.reserve(GROUP) == 60.0


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.floats(0, 300, allow_nan=False),
            st.sampled_from([GROUP, OTHER_GROUP, PERSON, OTHER_PERSON]),
        ),
        max_size=150,
    ),
    st.lists(st.floats(0, 5, allow_nan=False), min_size=1, max_size=5),
)
def test_any_traffic_keeps_every_limit_in_every_window(
    wanted: list[tuple[float, int]], latencies: list[float]
) -> None:
    clock = FakeClock(0.0)
    limits = Limits(group_count=20, group_window=60.0, overall_count=30)
    limiter = SlidingWindowLimiter(limits, clock)
    sent = asyncio.run(simulate(limiter, clock, wanted, latencies))
    assert len(sent) == len(wanted), "everything goes out in the end"
    for chat in (GROUP, OTHER_GROUP, PERSON, OTHER_PERSON):
        count, window = (20, 60.0) if chat < 0 else (1, 1.0)
        for moments in (
            [s.started for s in sent if s.chat == chat],
            [s.answered for s in sent if s.chat == chat],
        ):
            assert most_in_a_window(moments, window) <= count
    assert most_in_a_window([s.started for s in sent], 1.0) <= 30
