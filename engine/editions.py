"""The registry of table editions: the one module that imports the edition packages.

`register(edition)` makes an edition playable: its format (the settings' `format` key,
player range, own cards), its board, its commands (for `decide` and the codec) and its
events (for `evolve` and the codec). The classic, the 2023 and the Liars editions are
registered here; another package registers its own the same way, at run time.

`edition_of(game)` is a game's edition (None for the forum); `edition_key(game)` its key
("forum", "classic", "y2023", "liars", ...), the key the bot's own registry uses.
"""

from __future__ import annotations

from engine.board import BOARDS
from engine.commands import COMMAND_TYPES
from engine.events import EVENT_TYPES
from engine.evolve import add_folds
from engine.formats import add_format, format_of
from engine.liars.edition import LIARS_EDITION
from engine.state import Game
from engine.table.classic import CLASSIC
from engine.table.edition import Edition, add_edition, edition_for, editions
from engine.y2023.edition import Y2023_EDITION

__all__ = [
    "Edition",
    "edition_for",
    "edition_key",
    "edition_of",
    "editions",
    "find_edition",
    "register",
]


def _add_names(table: dict[str, type], kinds: list[type]) -> None:
    """Event or command classes by name, for the codec; a name means one class."""
    for kind in kinds:
        if table.get(kind.__name__, kind) is not kind:
            raise ValueError(f"another {kind.__name__} is known already")
        table[kind.__name__] = kind


def register(edition: Edition) -> Edition:
    """Make an edition playable (again for the same edition is a no-op); a different
    edition under a key already taken is refused (ValueError)."""
    add_format(edition.format)
    add_edition(edition)
    if edition.board is not None:
        known = BOARDS.get(edition.board.key)
        if known is not None and known is not edition.board:
            raise ValueError(f"another board is called {edition.board.key!r}")
        BOARDS[edition.board.key] = edition.board
    add_folds(edition.events)
    _add_names(EVENT_TYPES, list(edition.events))
    _add_names(COMMAND_TYPES, list(edition.commands))
    return edition


def find_edition(key: str) -> Edition | None:
    """The registered edition with this key or alias (None: no such table edition)."""
    for edition in editions():
        if key == edition.key or key in edition.aliases:
            return edition
    return None


def edition_of(game: Game) -> Edition | None:
    """The game's table edition; None for a forum game."""
    if not format_of(game.settings.format).at_table:
        return None
    return edition_for(game.settings)


def edition_key(game: Game) -> str:
    """The key of the game's format: "forum", or its table edition's key."""
    return str(game.settings.format)


register(CLASSIC)  # the first registered is the default table edition
register(Y2023_EDITION)
register(LIARS_EDITION)
