"""The update processor: one key's updates in arrival order, different keys side by side."""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime

from telegram import CallbackQuery, Chat, Message, Update, User

from bot.updates import KeyedUpdateProcessor, update_key


def _first(update: object) -> str:
    assert isinstance(update, tuple)
    return str(update[0])


async def _run_all(processor: KeyedUpdateProcessor, work: list[tuple[object, object]]) -> None:
    async with processor:
        await asyncio.wait_for(
            asyncio.gather(*(processor.process_update(u, c) for u, c in work)),  # type: ignore[arg-type]
            timeout=10,
        )


async def test_one_keys_updates_run_one_at_a_time_in_arrival_order() -> None:
    processor = KeyedUpdateProcessor(64, key=_first)
    started: list[int] = []
    running = 0
    overlap = False

    async def handle(n: int) -> None:
        nonlocal running, overlap
        running += 1
        overlap = overlap or running > 1
        started.append(n)
        await asyncio.sleep(random.uniform(0, 0.005))
        running -= 1

    await _run_all(processor, [(("chat", n), handle(n)) for n in range(50)])
    assert started == list(range(50))
    assert not overlap


async def test_different_keys_run_concurrently() -> None:
    processor = KeyedUpdateProcessor(64, key=_first)
    second_began = asyncio.Event()

    async def first() -> None:  # finishes only if the other key's update runs meanwhile
        await asyncio.wait_for(second_began.wait(), timeout=5)

    async def second() -> None:
        second_began.set()

    await _run_all(processor, [(("a", 1), first()), (("b", 1), second())])
    assert second_began.is_set()


async def test_a_flood_in_one_key_takes_no_slot_from_other_keys() -> None:
    processor = KeyedUpdateProcessor(2, key=_first)
    release = asyncio.Event()
    other_done = asyncio.Event()

    async def stuck() -> None:
        await release.wait()

    async def other() -> None:
        other_done.set()

    async with processor:
        flood = [
            asyncio.create_task(processor.process_update(("flood", n), stuck())) for n in range(100)
        ]
        await asyncio.sleep(0.01)
        await asyncio.wait_for(processor.process_update(("quiet", 1), other()), timeout=5)
        assert other_done.is_set()
        assert processor.waiting == 100
        release.set()
        await asyncio.wait_for(asyncio.gather(*flood), timeout=5)
    assert processor.waiting == 0 and processor.busy_keys == 0


async def test_concurrency_is_bounded() -> None:
    processor = KeyedUpdateProcessor(3, key=_first)
    running = peak = 0

    async def handle() -> None:
        nonlocal running, peak
        running += 1
        peak = max(peak, running)
        await asyncio.sleep(0.01)
        running -= 1

    await _run_all(processor, [((n, 0), handle()) for n in range(20)])
    assert peak == 3


async def test_process_update_returns_after_the_handling_finished() -> None:
    processor = KeyedUpdateProcessor(8, key=_first)
    finished: list[int] = []

    async def handle(n: int) -> None:
        await asyncio.sleep(0.01)
        finished.append(n)

    async with processor:
        await processor.process_update(("x", 1), handle(1))
        assert finished == [1]
        later = asyncio.create_task(processor.process_update(("x", 2), handle(2)))
        await processor.process_update(("y", 3), handle(3))
        await later
        assert sorted(finished) == [1, 2, 3]


async def test_an_update_refused_by_admit_is_never_handled() -> None:
    handled: list[int] = []

    async def admit(update: object) -> bool:
        return _first(update) != "flooder"

    async def handle(n: int) -> None:
        handled.append(n)

    processor = KeyedUpdateProcessor(8, key=_first, admit=admit)
    await _run_all(processor, [(("flooder", 1), handle(1)), (("player", 2), handle(2))])
    assert handled == [2]


def test_keys_group_chats_and_people() -> None:
    alice = User(1, "Alice", False)
    group = Chat(-100, Chat.SUPERGROUP)
    private = Chat(1, Chat.PRIVATE)
    when = datetime(2026, 1, 1, tzinfo=UTC)

    def message(chat: Chat) -> Update:
        return Update(1, message=Message(1, when, chat, from_user=alice, text="/status"))

    in_group = Message(7, when, group, from_user=User(9, "Bot", True), text="Lobby")
    press = Update(2, callback_query=CallbackQuery("q", alice, "ci", message=in_group, data="x"))
    assert update_key(message(group)) == "chat:-100"
    assert update_key(message(private)) == "user:1"
    assert update_key(press) == "user:1"  # the presser's order, wherever the button is
