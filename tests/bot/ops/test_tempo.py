"""bench.tempo's core on one small game: a classic game of three at the brisk pace, played
through the real bot with Telegram's limits, gives figures that make sense: the game ends,
the group calls are counted to its turns and stay within Telegram's 20 a minute, and every
delay measured is a moment after the one it is measured from."""

from __future__ import annotations

import bisect

import pytest

from bench.tempo_figures import COUNTED, figures
from bench.tempo_play import Spec, play


@pytest.mark.slow
def test_a_small_game_gives_sane_figures() -> None:
    played = play(Spec("classic", 3, "brisk", 4))  # a short game: 15 turns
    found = figures(played)
    assert found.ended and found.turns > 0 and found.minutes > 0
    assert len(found.per_turn) == found.turns and found.mean_per_turn > 0
    group = sorted(
        at
        for at, call in played.calls
        if call.method in COUNTED and call.params.get("chat_id") == played.group
    )
    assert found.group_calls == len(group)
    busiest = max(bisect.bisect_left(group, at + 60) - i for i, at in enumerate(group))
    assert busiest <= 20, "the bot kept Telegram's limit of 20 a minute in the group"
    assert found.buttons and min(found.buttons) >= 0
    assert found.toasts and min(found.toasts) >= 0
    assert found.behind  # the shown cards: private to the suggester, told in the group
    assert all(act.at >= act.seen for act in played.acts)
    # brisk: each act 1–3 s after what it acts on (later only when it had to wait)
    assert all(act.at - act.seen >= 1.0 for act in played.acts if act.shown is not None)
