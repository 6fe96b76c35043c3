"""The per-person counts behind the flood limits: bursts, slow floods, cooldowns."""

from __future__ import annotations

from bot.flood import FloodGuard, Limits, Verdict

LIMITS = Limits(group=5, private=30, window=20, sustained=20, long_window=600, cooldown=300)


class Ticks:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _run(guard: FloodGuard, times: int, chat: int = -1, user: int = 1) -> list[Verdict]:
    return [guard.count(chat, user, private=chat > 0) for _ in range(times)]


def test_a_burst_over_the_group_limit_earns_one_notice_then_silence() -> None:
    ticks = Ticks()
    guard = FloodGuard(LIMITS, ticks)
    verdicts = _run(guard, 200)
    assert verdicts[:5] == [Verdict.HANDLE] * 5
    assert verdicts[5] is Verdict.NOTICE
    assert set(verdicts[6:]) == {Verdict.IGNORE}
    ticks.now += 299
    assert _run(guard, 1) == [Verdict.IGNORE]
    ticks.now += 2  # the cooldown is over: a fresh start
    assert _run(guard, 5) == [Verdict.HANDLE] * 5


def test_people_and_chats_are_counted_apart() -> None:
    guard = FloodGuard(LIMITS, Ticks())
    _run(guard, 10, chat=-1, user=1)
    assert _run(guard, 5, chat=-1, user=2) == [Verdict.HANDLE] * 5
    assert _run(guard, 5, chat=-2, user=1) == [Verdict.HANDLE] * 5


def test_a_slow_steady_flood_in_a_group_is_caught_too() -> None:
    ticks = Ticks()
    guard = FloodGuard(LIMITS, ticks)
    verdicts = []
    for _ in range(10):  # 4 commands every 21 s: never a burst
        verdicts += _run(guard, 4)
        ticks.now += 21
    assert verdicts[:20] == [Verdict.HANDLE] * 20
    assert verdicts[20] is Verdict.NOTICE
    assert verdicts.count(Verdict.NOTICE) == 1


def test_a_private_chat_allows_a_quick_composer() -> None:
    ticks = Ticks()
    guard = FloodGuard(LIMITS, ticks)
    for _ in range(40):  # a suggestion's five presses every 12 s, for eight minutes
        assert _run(guard, 5, chat=1) == [Verdict.HANDLE] * 5
        ticks.now += 12
    ticks.now += 20
    assert _run(guard, 31, chat=1)[-1] is Verdict.NOTICE


def test_people_who_went_quiet_are_forgotten() -> None:
    ticks = Ticks()
    guard = FloodGuard(LIMITS, ticks)
    for user in range(999):
        guard.count(-1, user, private=False)
    ticks.now += 601
    guard.count(-1, 5000, private=False)  # the 1000th check sweeps
    assert len(guard._recent) == 1
