"""Game formats as the settings see them: the forum's days, or a table edition's player
range and cards. Each table edition brings its own `Format` (the registry adds it), so the
settings validate and read a format without knowing the editions."""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import Pack


@dataclass(frozen=True)
class Format:
    """`players` is a table edition's own range (None: the forum, the settings' range);
    `pack` the edition's own cards (None: the settings name the pack); `roles_chosen`:
    players always choose their suspect."""

    key: str
    players: tuple[int, int] | None = None
    pack: Pack | None = None
    roles_chosen: bool = False

    @property
    def at_table(self) -> bool:
        """Played at the table, turn by turn on a board (not the forum's days)."""
        return self.players is not None


FORUM = Format("forum")

_FORMATS: dict[str, Format] = {FORUM.key: FORUM}


def add_format(format_: Format) -> None:
    """Make a format known to the settings (the registry adds each edition's)."""
    known = _FORMATS.get(format_.key)
    if known is not None and known != format_:
        raise ValueError(f"another format is called {format_.key!r}")
    _FORMATS[format_.key] = format_


def remove_format(key: str) -> None:
    """Forget a format (an edition unregistered); the forum stays."""
    if key != FORUM.key:
        _FORMATS.pop(key, None)


def format_of(key: str) -> Format:
    """The format named `key`; KeyError if no edition brought it."""
    return _FORMATS[key]


def format_keys() -> tuple[str, ...]:
    """Every known format's key, the forum first, then in the order they were added."""
    return tuple(_FORMATS)
