"""A Liars Edition game driven command by command (the classic helper, its format)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine.events import Event
from engine.liars import commands as lcmd
from engine.liars.state import Liars as LiarsPart
from engine.liars.state import liars_part
from engine.settings import Settings
from engine.table.state import Step
from tests.support.classic import Classic


def liars(**changes: Any) -> Settings:
    return Settings(format="liars", **changes)


class Liars(Classic):
    """Users 1..n in seats 0..n-1; Scarlett (seat 0 with the default roles) starts."""

    def __init__(self, players: int = 3, **kwargs: Any) -> None:
        kwargs.setdefault(
            "roles", ("scarlett", "mustard", "white", "green", "peacock", "plum")[:players]
        )
        kwargs.setdefault("settings", liars())
        super().__init__(players, **kwargs)

    @property
    def part(self) -> LiarsPart:
        return liars_part(self.table)

    def hold(self, seat: int, card: str) -> None:
        """Give a seat a chosen investigation card from the draw pile, its own going back
        in its place (tests set the table up directly; the deck stays whole)."""
        held = list(self.part.held)
        if held[seat] == card:
            return
        draw = list(self.part.draw)
        draw[draw.index(card)] = held[seat]
        held[seat] = card
        self._table(edition=replace(self.part, held=tuple(held), draw=tuple(draw)))

    def moved(self) -> None:
        """The current player stays in their room (their move)."""
        self.stay()

    def stay(self) -> list[Event]:
        """Roll (at the turn's start), then stay: the edition rolls first, then chooses."""
        rolled = self.roll() if self.table.step is Step.ROLL else []
        return rolled + super().stay()

    def passage(self) -> list[Event]:
        """Roll (at the turn's start), then take the room's secret passage."""
        rolled = self.roll() if self.table.step is Step.ROLL else []
        return rolled + super().passage()

    def read(self, action: str, user: int | None = None) -> list[Any]:
        actor = self.current.user if user is None else user
        return self.run(lcmd.PlayInvestigation(actor=actor, action=action))

    def call(self, user: int) -> list[Any]:
        return self.run(lcmd.CallLiar(actor=user))
