"""A toy fourth edition, from this one package: the classic board and cards played with
one four-sided die, and a command and an event of its own (a knock on the table, counted
in the edition's part of the table). Its tests play it through a registry of their own,
`Registry((*FORMATS, TOY))` (`TOY_REGISTRY`); no shared engine file names it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from types import MappingProxyType

from engine import FORMATS, Registry
from engine.commands import Command
from engine.decision import Decision
from engine.events import Event
from engine.formats import FormatSpec
from engine.ids import Seat
from engine.state import Game
from engine.table.checks import require_turn
from engine.table.classic import TABLE_COMMANDS, Classic
from engine.table.dice import roll_dice
from engine.table.edition import Fold, Handler
from engine.table.state import EditionState

FACES = 4


@dataclass(frozen=True, kw_only=True)
class Knock(Command):
    """The current player knocks on the table."""


@dataclass(frozen=True, kw_only=True)
class Knocked(Event):
    seat: Seat


@dataclass(frozen=True)
class ToyPart(EditionState):
    """The toy edition's part of the table: how many knocks so far."""

    knocks: int = 0


def knock(state: Game | None, c: Knock, now: datetime) -> Decision:
    game, _, player = require_turn(state, c.actor)
    return Decision(game, Knocked(at=now, seat=player.seat))


def knocked(state: Game, e: Knocked) -> Game:
    table = state.table
    assert table is not None
    part = table.edition if isinstance(table.edition, ToyPart) else ToyPart()
    return replace(state, table=replace(table, edition=replace(part, knocks=part.knocks + 1)))


TOY_COMMANDS: Mapping[type[Command], Handler] = MappingProxyType({**TABLE_COMMANDS, Knock: knock})
TOY_EVENTS: Mapping[type[Event], Fold] = MappingProxyType({Knocked: knocked})


class D4(Classic):
    """The classic game with one four-sided die."""

    spec = FormatSpec("toy_d4", players=(3, 6))
    aliases = ("d4",)
    commands = TOY_COMMANDS
    events = TOY_EVENTS

    def dice(self, game: Game) -> int:
        return 1

    def roll(self, game: Game, turn: int) -> tuple[int, ...]:
        return roll_dice(game.seed, turn, self.dice(game), faces=FACES)


TOY = D4()
TOY_REGISTRY = Registry((*FORMATS, TOY))  # the shipped formats and the toy

__all__ = ["D4", "FACES", "TOY", "TOY_REGISTRY", "Knock", "Knocked", "ToyPart", "knocked"]
