"""The shipped registry (engine/editions.py `REGISTRY`): one frozen value built once from
the static tuple `FORMATS`, whose tables are read-only; a registry is never changed, a new
one is built (tests/engine/table/test_toy_edition.py builds one with a toy edition)."""

from __future__ import annotations

import dataclasses

import pytest

from engine import FORMATS, REGISTRY, Registry
from engine import commands as cmd
from engine import events as ev
from engine.board import CLASSIC as CLASSIC_BOARD
from engine.errors import InvalidSetting
from engine.forum import FORUM
from engine.settings import Settings
from engine.table.classic import CLASSIC
from engine.y2023.edition import Y2023_EDITION


def test_the_shipped_registry_is_built_from_the_static_formats_the_forum_first() -> None:
    assert REGISTRY.formats == FORMATS and FORMATS[0] is FORUM
    assert REGISTRY.keys == ("forum", "classic", "y2023", "liars")
    assert REGISTRY.editions[0] is CLASSIC  # the default table edition
    assert REGISTRY.find_edition("2023") is Y2023_EDITION and REGISTRY.find_edition("forum") is None
    assert REGISTRY.boards["classic"] is CLASSIC_BOARD and "liars" not in REGISTRY.boards
    assert REGISTRY.codec.names.events["LobbyOpened"] is ev.LobbyOpened
    assert REGISTRY.codec.names.commands["Roll"] is cmd.Roll
    assert Registry(FORMATS) == REGISTRY  # the same formats make the same registry


def test_a_registry_and_its_tables_cannot_change() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        REGISTRY.formats = ()  # type: ignore[misc]
    for table in (REGISTRY.by_key, REGISTRY.specs, REGISTRY.boards, REGISTRY.folds):
        with pytest.raises(TypeError):
            table["toy"] = None  # type: ignore[index]
    with pytest.raises(TypeError):
        REGISTRY.handlers[cmd.Roll] = None  # type: ignore[index]
    with pytest.raises(dataclasses.FrozenInstanceError):
        CLASSIC.aliases = ("c",)


def test_formats_that_clash_are_refused_when_the_registry_is_built() -> None:
    with pytest.raises(ValueError, match="the format 'classic'"):
        Registry((*FORMATS, type(CLASSIC)()))  # another classic under the same key
    assert Registry((FORUM, CLASSIC)).keys == ("forum", "classic")


def test_the_registry_finds_the_format_its_settings_name_and_checks_them() -> None:
    assert REGISTRY.format_for(Settings(format="y2023")) is Y2023_EDITION
    with pytest.raises(InvalidSetting):
        REGISTRY.format_for(Settings(format="chess"))
    with pytest.raises(InvalidSetting):  # a table plays the classic pack
        REGISTRY.format_for(Settings(format="classic", pack="custom"))
    with pytest.raises(InvalidSetting):  # no table edition among these formats
        Registry((FORUM,)).format_for(Settings(format="classic"))
