"""The three levels of computer detective."""

from __future__ import annotations

from enum import StrEnum


class Level(StrEnum):
    """`novice`: legal random play, a random matching card shown; it accuses when its hand
    and the cards shown to it leave one card of each kind. `sleuth`: suggests to learn what
    it does not know, accuses only when its deductions force the envelope. `inspector`:
    exact odds; suggests for the most information, shows the card that reveals least,
    accuses when forced, or when the odds and the race say so."""

    NOVICE = "novice"
    SLEUTH = "sleuth"
    INSPECTOR = "inspector"
