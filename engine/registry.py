"""A registry: the formats a program plays (the forum and the table editions), as one
frozen value built from a tuple of them, like python-chess's `VARIANTS`.

`Registry(formats)` checks that no two formats share a key, a board, an event's or a
command's name or an event's fold (ValueError), then builds once the read-only tables the
entry points read: the formats by key (and the editions by alias: `find_edition`), their
specs, boards, event and command types by name (its `codec`), folds, `decide`'s
handlers, and the kinds of rule error by code. Nothing is registered anywhere: the
shipped registry is engine/editions.py `REGISTRY`; a test builds its own with a toy
edition among the formats.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from types import MappingProxyType
from typing import Any, TypeVar

from engine.board.model import Board
from engine.codec import Codec, Names
from engine.commands import CORE_COMMANDS, Command
from engine.decision import Decision
from engine.error_codes import by_code
from engine.errors import RuleError, WrongFormat
from engine.events import CORE_EVENTS, Event
from engine.evolve import CORE_FOLDS, Fold
from engine.format import Format, format_of
from engine.formats import FormatSpec, spec_for
from engine.handlers import core_handlers
from engine.settings import Settings
from engine.state import Game
from engine.table.edition import Edition, Handler

K = TypeVar("K")
V = TypeVar("V")


def _table(pairs: Iterable[tuple[K, V]], what: str, clashes: list[str]) -> Mapping[K, V]:
    """A read-only table of the pairs; a key given two different values is a clash."""
    table: dict[K, V] = {}
    for key, value in pairs:
        known = table.setdefault(key, value)
        if known is not value and known != value:
            clashes.append(f"{what} {getattr(key, '__name__', key)!r}")
    return MappingProxyType(table)


@dataclass(frozen=True)
class Registry:
    """The formats of one program, the first table edition the default (a forum game's
    table command goes to it, and it refuses); every table built once from them,
    read-only (two registries of the same formats are equal)."""

    formats: tuple[Format, ...]
    by_key: Mapping[str, Format] = field(init=False, repr=False, compare=False)
    specs: Mapping[str, FormatSpec] = field(init=False, repr=False, compare=False)
    editions: tuple[Edition, ...] = field(init=False, repr=False, compare=False)
    boards: Mapping[str, Board] = field(init=False, repr=False, compare=False)
    folds: Mapping[type[Event], Fold] = field(init=False, repr=False, compare=False)
    handlers: Mapping[type[Command], Handler] = field(init=False, repr=False, compare=False)
    codec: Codec = field(init=False, repr=False, compare=False)
    errors: Mapping[str, type[RuleError]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        clashes: list[str] = []
        by_key = _table(((f.key, f) for f in self.formats), "the format", clashes)
        editions = tuple(f for f in self.formats if isinstance(f, Edition))
        boards = _table(
            ((e.board.key, e.board) for e in editions if e.board is not None), "the board", clashes
        )
        own_events = [kind for f in self.formats for kind in f.events]
        folds = _table(
            [*CORE_FOLDS.items(), *((k, v) for f in self.formats for k, v in f.events.items())],
            "the fold of",
            clashes,
        )
        event_types = _table(
            ((k.__name__, k) for k in (*CORE_EVENTS, *own_events)), "the event name", clashes
        )
        own_commands = [kind for e in editions for kind in e.commands]
        command_types = _table(
            ((k.__name__, k) for k in (*CORE_COMMANDS, *own_commands)), "the command name", clashes
        )
        if clashes:
            raise ValueError("the formats clash over " + ", ".join(dict.fromkeys(clashes)))
        core = core_handlers(self.format_for, self._table_command)
        table = {kind: self._table_command for kind in own_commands if kind not in core}
        specs = MappingProxyType({key: found.spec for key, found in by_key.items()})
        names = Names(events=event_types, commands=command_types, formats=by_key)
        for name, value in (
            ("by_key", by_key),
            ("specs", specs),
            ("editions", editions),
            ("boards", boards),
            ("folds", folds),
            ("handlers", MappingProxyType({**table, **core})),
            ("codec", Codec(names)),
            ("errors", by_code(kind for f in self.formats for kind in f.errors)),
        ):
            object.__setattr__(self, name, value)

    # --- formats ----------------------------------------------------------------------
    @property
    def keys(self) -> tuple[str, ...]:
        """Every format's key, in the registry's order (the forum first, as shipped)."""
        return tuple(self.by_key)

    def find_edition(self, word: str) -> Edition | None:
        """The table edition with this key or alias (None: no such table edition)."""
        for edition in self.editions:
            if word == edition.key or word in edition.aliases:
                return edition
        return None

    def format_for(self, settings: Settings) -> Format:
        """The format the settings name, the settings checked against it (InvalidSetting:
        none of this registry's, or settings it cannot play with)."""
        spec_for(settings, self.specs)
        return self.by_key[settings.format]

    # --- commands -----------------------------------------------------------------------
    def _table_command(self, state: Game | None, command: Any, now: datetime) -> Decision:
        """A table command's handler in the game's edition; a command the edition lacks
        is of another format. A forum game's are the default edition's (they refuse it:
        no table). With no game, any edition's (they refuse it: no game)."""
        kind = type(command)
        if state is not None:
            found = format_of(state)
            edition = found if isinstance(found, Edition) else self.editions[0]
            handler = edition.commands.get(kind)
            if handler is None:
                raise WrongFormat()
            return handler(state, command, now)
        for edition in self.editions:
            if kind in edition.commands:
                return edition.commands[kind](state, command, now)
        raise KeyError(kind)

    def decide_and_apply(self, state: Game | None, command: Command, now: datetime) -> Decision:
        """Validate a command against the state; its events with the state after each, or
        a RuleError (engine/decide.py)."""
        if now.tzinfo is None:
            raise ValueError("now must be timezone-aware")
        return self.handlers.get(type(command), self._table_command)(state, command, now)
