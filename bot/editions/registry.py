"""The bot's edition registry: the one module that imports the editions. `EDITIONS` is
the shipped tuple; the application builds its `Presentations` from it at start-up (a test
may build one with more editions)."""

from __future__ import annotations

from bot.editions.base import Edition
from bot.editions.classic import CLASSIC
from bot.editions.forum import FORUM
from bot.editions.liars import LIARS
from bot.editions.presentations import Presentations
from bot.editions.y2023 import Y2023

EDITIONS: tuple[Edition, ...] = (FORUM, CLASSIC, Y2023, LIARS)


def shipped(*more: Edition) -> Presentations:
    """The shipped editions' presentations (with `more`, a test's besides)."""
    return Presentations((*EDITIONS, *more))
