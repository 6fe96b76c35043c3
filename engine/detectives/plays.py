"""How a computer detective plays each table format, by the format's key: the classic
turn (`Detective.table_turn`) unless the format has steps of its own, played by its
edition's package with the detective's judgement (engine/liars/detective.py: the ring and
the investigation card; engine/y2023/detective.py: the clue card and the rooms' cards).

This is where the detectives meet the editions: the editions' rules know nothing of the
detectives, and a new format with steps of its own adds its play here (a test plays one
through a table of its own: `next_move(..., plays=...)`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

from engine import commands as cmd
from engine.detectives.detective import Detective
from engine.liars.detective import liars_move
from engine.liars.edition import LIARS_EDITION
from engine.y2023.detective import y2023_move
from engine.y2023.edition import Y2023_EDITION

# A detective's move now, besides the card it is asked to show (None: nothing to do).
Play = Callable[[Detective], cmd.Command | None]


def classic_play(detective: Detective) -> cmd.Command | None:
    """The classic turn on its turn, else nothing."""
    return detective.table_turn()


# The formats whose detectives play steps of their own; any other plays the classic turn.
PLAYS: Mapping[str, Play] = MappingProxyType(
    {
        LIARS_EDITION.key: liars_move,
        Y2023_EDITION.key: y2023_move,
    }
)


def play_of(key: str, plays: Mapping[str, Play] = PLAYS) -> Play:
    """How a detective plays the format `key` (`plays`: the table to read)."""
    return plays.get(key, classic_play)
