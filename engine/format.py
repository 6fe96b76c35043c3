"""The format, a game's top-level object: the forum (engine/forum.py) and every table
edition (engine/table/edition.py `Edition`, and each edition's package) implement this one
interface, and the shared rules ask a game's format (`format_of`) wherever forum and table
differ instead of looking for a table. A game holds its format (`Game.format`), put there
by the registry that opened or read it (engine/registry.py; the shipped one is
engine/editions.py `REGISTRY`); `FormatSpec` (engine/formats.py) is what the settings
know of it."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from engine.cards import CardId, Category
from engine.commands import DeadlineCommand
from engine.decision import Decision
from engine.errors import SHARED_ERRORS, RuleError
from engine.formats import FormatBase
from engine.notebook.facts import Owner
from engine.settings import Settings
from engine.state import Game
from engine.table.state import TableSuggestion


@dataclass(frozen=True)
class Clock:
    """A clock someone must act within: when it runs out now, and its whole span (it
    gets that from the moment its message was delivered). `stopped`: it stands still
    meanwhile (the turn's while the others answer), so a delivery moves nothing."""

    due: datetime
    span: timedelta
    stopped: bool = False


class Format(FormatBase):
    """What the shared rules ask of a game's format; each answer is the forum's or a
    table edition's (its `spec` and `events`: engine/formats.py `FormatBase`)."""

    # The kinds of rule error its rules raise (the catalogs hold a message for each):
    # the shared ones, and a table edition's own (the registry collects them).
    errors: tuple[type[RuleError], ...] = SHARED_ERRORS

    def roles(self, game: Game) -> tuple[CardId, ...]:
        """The suspects its players may have as their roles."""
        raise NotImplementedError

    def require_roles_in_play(self, game: Game) -> None:
        """At the start: each role chosen in the lobby is one of its suspects (one chosen
        before the format changed may not be; RoleNotASuspect)."""

    def drawn_cards(self, game: Game, rng: random.Random) -> dict[Category, list[CardId]]:
        """The cards of its deal (the envelope's among them), by category."""
        raise NotImplementedError

    def start(self, decision: Decision, rng: random.Random, now: datetime) -> None:
        """Deal from the game's seed and open play (the first day, or the first turn)."""
        raise NotImplementedError

    def plays_turns(self, game: Game) -> bool:
        """The game is played turn by turn now (a table edition's, once its table is set)."""
        raise NotImplementedError

    def moment(self, game: Game) -> int:
        """How far the game has come: its turn at the table, its day in the forum."""
        raise NotImplementedError

    def table_suggestions(self, game: Game) -> tuple[TableSuggestion, ...]:
        """The suggestions made at its table (none in the forum, whose are the game's)."""
        return ()

    def timers(self, game: Game) -> list[tuple[str, DeadlineCommand]]:
        """Its own pending deadlines (key, command) besides the days, answers and windows."""
        return []

    def timer_due(self, game: Game, command: DeadlineCommand) -> datetime | None:
        """When one of its own deadline commands falls due (None: not pending, or not one
        of its own)."""
        return None

    def unseen_clock(self, game: Game, command: DeadlineCommand) -> tuple[str, int] | None:
        """The clock (name, ref) this deadline ends while its message was not yet reported
        delivered (None: no one's clock, or reported seen)."""
        return None

    def fresh_clock(self, game: Game, name: str, ref: int) -> Clock | None:
        """The clock `name` of `ref` while pending and not yet reported seen (None:
        stale, seen, or no clock of this format)."""
        return None

    def notebook_sizes(self, game: Game) -> tuple[tuple[Owner, int], ...]:
        """How many cards each owner holds now, as everyone knows: each seat its hand."""
        return tuple((p.seat, len(p.hand)) for p in game.players)


# The format some settings name, the settings checked against it (InvalidSetting: none
# such, or settings it refuses): a registry's `format_for`, passed to the lobby's rules.
FormatFor = Callable[[Settings], Format]


def format_of(game: Game) -> Format:
    """The game's format: the forum, or its table edition."""
    found = game.format
    if not isinstance(found, Format):
        raise TypeError(f"{found!r} is not a format of the rules")
    return found


def moment(game: Game) -> int:
    """A fact's `when`: the turn at the table, the day in the forum (0: the deal)."""
    return format_of(game).moment(game)
