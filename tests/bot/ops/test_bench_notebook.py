"""bench.notebook refuses a player count its format does not allow, saying the format's
range (it used to stop with an IndexError past six at a table)."""

from __future__ import annotations

import sys

import pytest

from bench import notebook


@pytest.mark.parametrize(
    ("formats", "players", "said"),
    [
        ("classic", 10, "--players 10: classic is played by 3 to 6"),
        ("forum", 11, "--players 11: forum is played by 3 to 10"),
        ("forum,y2023", 1, "--players 1: forum is played by 3 to 10"),
        ("y2023", 7, "--players 7: y2023 is played by 2 to 6"),
    ],
)
def test_a_count_the_format_does_not_allow_is_refused(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    formats: str,
    players: int,
    said: str,
) -> None:
    argv = ["bench.notebook", "--players", str(players), "--formats", formats]
    monkeypatch.setattr(sys, "argv", argv)
    with pytest.raises(SystemExit) as stopped:
        notebook.main()
    assert stopped.value.code == 2
    assert said in capsys.readouterr().err


def test_every_format_allows_six_and_the_forum_ten() -> None:
    for key in notebook.FORMATS:
        low, high = notebook.player_range(key)
        assert low <= 6 <= high
    assert notebook.player_range("forum")[1] == 10
