"""The format is a game's top-level object: the forum and every table edition answer the
same questions, found by one `format_of(game)` (engine/format.py)."""

from __future__ import annotations

import pytest

from engine import REGISTRY
from engine.errors import WrongFormat
from engine.format import format_of
from engine.forum import FORUM
from engine.settings import Settings
from engine.table.classic import CLASSIC
from engine.table.edition import table_edition
from tests.support.classic import Classic


def test_every_format_is_known_by_its_key_the_forum_first() -> None:
    assert REGISTRY.formats[0] is FORUM
    assert [f.key for f in REGISTRY.formats] == list(REGISTRY.keys)
    assert all(REGISTRY.specs[f.key] == f.spec for f in REGISTRY.formats)
    assert set(REGISTRY.formats) - set(REGISTRY.editions) == {FORUM}


def test_a_forum_game_is_played_over_days_with_no_table() -> None:
    game = Classic(settings=Settings(format="forum")).game
    found = format_of(game)
    assert found is FORUM and found.has_days and not found.plays_turns(game)
    assert found.moment(game) == game.day == 1
    assert found.table_suggestions(game) == () and found.timers(game) == []
    with pytest.raises(WrongFormat):
        table_edition(game)


def test_a_table_game_plays_turns_once_its_table_is_set() -> None:
    lobby = Classic(start=False).state
    assert lobby is not None and format_of(lobby) is CLASSIC
    assert not CLASSIC.has_days and not CLASSIC.plays_turns(lobby)
    game = Classic().game
    assert game.table is not None and CLASSIC.plays_turns(game)
    assert CLASSIC.moment(game) == game.table.turn
    turn = game.table.turn
    assert [key for key, _ in CLASSIC.timers(game)] == [f"turn:{turn}", f"refute:{turn}"]
