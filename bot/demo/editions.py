"""The formats the demo plays, each with its hands (how its moves are made in the bot's
interface) and its pace (how far the clock moves after a move). A format is here, and in
bot/demo/options.py's FORMATS, once the computer detectives play it (engine/detectives)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta
from types import MappingProxyType

from bot.demo.forum import ForumHands
from bot.demo.hands import Hands
from bot.demo.liars import LiarsHands
from bot.demo.table import TableHands


@dataclass(frozen=True)
class DemoFormat:
    """A format's key (the engine's `Settings.format`), hands and pace."""

    key: str
    hands: Hands
    pace: timedelta


DEMO_FORMATS: Mapping[str, DemoFormat] = MappingProxyType(
    {
        f.key: f
        for f in (
            DemoFormat("forum", ForumHands(), timedelta(minutes=2)),
            DemoFormat("classic", TableHands(), timedelta(seconds=10)),
            DemoFormat("liars", LiarsHands(), timedelta(seconds=10)),
            DemoFormat(
                "y2023", TableHands(), timedelta(seconds=10)
            ),  # its clue card: a prompt press
        )
    }
)
