"""Computer detectives as the rules know them: their three levels, and the user ids they sit
under. A detective's id is negative (no Telegram user's is) and carries its number in the
game and its level: -(10 * number + level code), so anyone holding the id knows both."""

from __future__ import annotations

from enum import StrEnum
from types import MappingProxyType

from engine.ids import UserId


class Level(StrEnum):
    """`novice`: legal random play, a random matching card shown; it accuses when its hand
    and the cards shown to it leave one card of each kind. `sleuth`: suggests to learn what
    it does not know, accuses only when its deductions force the envelope. `inspector`:
    exact odds; suggests for the most information, shows the card that reveals least,
    accuses when forced, or when the odds and the race say so."""

    NOVICE = "novice"
    SLEUTH = "sleuth"
    INSPECTOR = "inspector"


_CODES = MappingProxyType({Level.NOVICE: 1, Level.SLEUTH: 2, Level.INSPECTOR: 3})
_LEVELS = MappingProxyType({code: level for level, code in _CODES.items()})


def detective_user(number: int, level: Level) -> UserId:
    """The id of the game's detective number `number` (1, 2, ...) of `level`."""
    return -(10 * number + _CODES[level])


def detective_level(user: UserId) -> Level | None:
    """The level of the detective sitting under `user`; None for a person."""
    return _LEVELS.get(-user % 10) if user < 0 else None


def detective_number(user: UserId) -> int:
    """The detective's number in its game (1, 2, ...)."""
    return -user // 10


def next_detective(seated: int, level: Level) -> UserId:
    """A new detective's id, after the `seated` detectives the game has ever seated (its
    number is never reused, so "🤖 Inspector 1" is one detective all game long)."""
    return detective_user(seated + 1, level)
