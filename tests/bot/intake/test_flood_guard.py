"""The per-person counts behind the flood limits: bursts, slow floods, cooldowns; and
which earlier refusal a repeated one edits."""

from __future__ import annotations

from bot.flood import FloodGuard, Limits, Standing, Verdict
from bot.refusals import RECENT_MESSAGES, RepeatedRefusals

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


def test_the_standing_says_when_one_more_crosses_and_counts_nothing() -> None:
    ticks = Ticks()
    guard = FloodGuard(LIMITS, ticks)
    assert guard.standing(-1, 1, private=False) is Standing.FREE
    _run(guard, 4)
    assert guard.standing(-1, 1, private=False) is Standing.FREE
    _run(guard, 1)
    assert guard.standing(-1, 1, private=False) is Standing.BRINK
    assert guard.standing(-1, 1, private=False) is Standing.BRINK, "asking counts nothing"
    assert _run(guard, 1) == [Verdict.NOTICE]
    assert guard.standing(-1, 1, private=False) is Standing.QUIET
    ticks.now += 301
    assert guard.standing(-1, 1, private=False) is Standing.FREE


def test_a_repeated_refusal_edits_only_a_reply_among_the_last_messages() -> None:
    ticks = Ticks()
    refusals = RepeatedRefusals(120, ticks)
    place = (-1, 0, 7)
    refusals.posted(place, "u1:error.x", ("error.x", "{}"), message_id=10)
    near = refusals.earlier(place, message_id=10 + RECENT_MESSAGES)
    assert near is not None and near.key == "u1:error.x"
    assert refusals.earlier(place, message_id=11 + RECENT_MESSAGES) is None, "far up"
    ticks.now += 121
    assert refusals.earlier(place, message_id=12) is None, "too old"
