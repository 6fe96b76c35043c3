"""The registry of table editions: the one module that imports the edition packages.

`register(edition)` makes an edition playable: the edition as a format (engine/format.py)
and its spec (the settings' `format` key, player range, own cards), its board, its
commands (for `decide` and the codec) and its events (for `evolve` and the codec). The
classic, the 2023 and the Liars editions are registered here; another package registers
its own the same way, at run time (`unregister` takes it back, for a test that plays one
for a while).

The forum is added here too, first: every format (engine/format.py) is found by
`format_of(game)`, whose `key` ("forum", "classic", "y2023", "liars", ...) is the key the
bot's own registry uses.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.board import BOARDS
from engine.commands import COMMAND_TYPES, Command
from engine.events import EVENT_TYPES, Event
from engine.evolve import add_folds, folds, remove_folds
from engine.format import add_format, remove_format
from engine.formats import add_spec, format_keys, remove_spec, spec_of
from engine.forum import FORUM
from engine.liars.edition import LIARS_EDITION
from engine.table.classic import CLASSIC
from engine.table.edition import Edition, editions
from engine.y2023.edition import Y2023_EDITION

__all__ = [
    "Edition",
    "editions",
    "find_edition",
    "register",
    "unregister",
]


@dataclass(frozen=True)
class _Added:
    """What registering an edition added (so unregistering it takes exactly that away)."""

    board: str | None
    events: tuple[type[Event], ...]
    commands: tuple[type[Command], ...]


_ADDED: dict[str, _Added] = {}


def _clashes(edition: Edition) -> list[str]:
    """What another registered edition already holds under this one's names."""
    clashes: list[str] = []
    known = {e.key: e for e in editions()}.get(edition.key)
    if known is not None and known is not edition:
        clashes.append(f"the edition {edition.key!r}")
    if edition.key in format_keys() and spec_of(edition.key) != edition.spec:
        clashes.append(f"the format {edition.key!r}")
    board = edition.board
    if board is not None and BOARDS.get(board.key, board) is not board:
        clashes.append(f"the board {board.key!r}")
    folded = folds()
    clashes += [
        f"the fold of {k.__name__}" for k, f in edition.events.items() if folded.get(k, f) is not f
    ]
    for table, kinds in ((EVENT_TYPES, edition.events), (COMMAND_TYPES, edition.commands)):
        names: dict[str, type] = dict(table)
        clashes += [f"the name {k.__name__}" for k in kinds if names.get(k.__name__, k) is not k]
    return clashes


def register(edition: Edition) -> Edition:
    """Make an edition playable (again for the same edition is a no-op). One whose key,
    board, events or commands another holds is refused (ValueError), nothing changed."""
    clashes = _clashes(edition)
    if clashes:
        raise ValueError(f"{edition.key!r} clashes with " + ", ".join(clashes))
    if edition in editions():
        return edition
    board = edition.board
    added = _Added(
        board=board.key if board is not None and board.key not in BOARDS else None,
        events=tuple(kind for kind in edition.events if kind not in folds()),
        commands=tuple(kind for kind in edition.commands if kind.__name__ not in COMMAND_TYPES),
    )
    add_spec(edition.spec)
    add_format(edition)
    if board is not None:
        BOARDS[board.key] = board
    add_folds(edition.events)
    EVENT_TYPES.update({kind.__name__: kind for kind in edition.events})
    COMMAND_TYPES.update({kind.__name__: kind for kind in edition.commands})
    _ADDED[edition.key] = added
    return edition


def unregister(edition: Edition) -> None:
    """Take back what registering the edition added (its format, board, events and
    commands), as a test that plays an edition for a while does; not registered: nothing."""
    added = _ADDED.pop(edition.key, None)
    if added is None or edition not in editions():
        return
    remove_format(edition)
    remove_spec(edition.key)
    if added.board is not None:
        BOARDS.pop(added.board, None)
    remove_folds(added.events)
    for kind in added.events:
        EVENT_TYPES.pop(kind.__name__, None)
    for command in added.commands:
        COMMAND_TYPES.pop(command.__name__, None)


def find_edition(key: str) -> Edition | None:
    """The registered edition with this key or alias (None: no such table edition)."""
    for edition in editions():
        if key == edition.key or key in edition.aliases:
            return edition
    return None


add_format(FORUM)  # the forum first: a format like the editions, with no table
register(CLASSIC)  # the first registered is the default table edition
register(Y2023_EDITION)
register(LIARS_EDITION)
