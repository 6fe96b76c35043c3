"""The Liars Edition's commands (known by name with the engine's own to a registry of its
formats, engine/registry.py)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import CardId
from engine.commands import Command, DeadlineCommand


@dataclass(frozen=True, kw_only=True)
class PlayInvestigation(Command):
    """Read the investigation card: a truth card its own action, a lie card any of the
    three (an Action's value)."""

    action: str


@dataclass(frozen=True, kw_only=True)
class CallLiar(Command):
    """Press Liar! while the window is open."""


@dataclass(frozen=True, kw_only=True)
class ExposeCard(Command):
    """The caught liar's card to put face up."""

    card: CardId


@dataclass(frozen=True, kw_only=True)
class PassCard(Command):
    """The card this player passes to the left."""

    card: CardId


@dataclass(frozen=True, kw_only=True)
class PeekAt(Command):
    """The seat whose two random evidence cards the reader looks at."""

    seat: int


@dataclass(frozen=True, kw_only=True)
class MoveAnywhere(Command):
    """The reader's move to any room (their own included), to suggest again."""

    room: str


@dataclass(frozen=True, kw_only=True)
class LiarsDeadline(DeadlineCommand):
    """The window (nobody called), the liar's or the passers' time ran out in `turn`.
    `excused`: it ran out while the bot was down, so that stage gets a fresh timer."""

    excusable = True
    turn: int
    stage: str


LIARS_COMMANDS: tuple[type[Command], ...] = (
    PlayInvestigation,
    CallLiar,
    ExposeCard,
    PassCard,
    PeekAt,
    MoveAnywhere,
    LiarsDeadline,
)
