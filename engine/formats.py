"""Game formats as the settings see them (`FormatSpec`): the forum's days, or a table
edition's player range and cards. Each format (engine/format.py) brings its own spec (the
registry adds it), so the settings validate and read a format without knowing the editions."""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import Pack

# The settings (engine/settings.py `Settings` fields) a forum game reads, in the order
# people read them, and those every table edition reads unless it names its own.
FORUM_SETTINGS: tuple[str, ...] = (
    "format",
    "day_length",
    "day_ends_at",
    "timezone",
    "suggestions_per_day",
    "max_per_target_per_day",
    "max_received_per_day",
    "answer_grace",
    "missed_answer_penalty",
    "auto_no_refutation",
    "accusation_window",
    "open_day_if_window_left",
    "eliminated_may_suggest",
    "reminder_before",
    "away_days",
    "away_asked",
    "prod_idle",
    "replacement_after",
    "extra_cards",
    "role_assignment",
    "min_players",
    "max_players",
    "pack",
    "notebook",
    "detective_delay",
)
TABLE_SETTINGS: tuple[str, ...] = (
    "format",
    "turn_time",
    "refute_time",
    "away_after",
    "dice",
    "images",
    "role_assignment",
    "min_players",
    "max_players",
    "timezone",
    "notebook",
    "detective_delay",
)


@dataclass(frozen=True)
class FormatSpec:
    """`players` is a table edition's own range (None: the forum, the settings' range);
    `pack` the edition's own cards (None: the settings name the pack); `roles_chosen`:
    players always choose their suspect; `settings` the settings its games read (empty:
    the forum's, or the table's `TABLE_SETTINGS`)."""

    key: str
    players: tuple[int, int] | None = None
    pack: Pack | None = None
    roles_chosen: bool = False
    settings: tuple[str, ...] = ()

    @property
    def has_days(self) -> bool:
        """Played over days (the forum), not turn by turn at a table."""
        return self.players is None

    @property
    def setting_names(self) -> tuple[str, ...]:
        """The settings this format's games read, in the order people read them."""
        if self.settings:
            return self.settings
        return FORUM_SETTINGS if self.has_days else TABLE_SETTINGS


FORUM_SPEC = FormatSpec("forum")
FORUM_PLAYERS = (3, 10)  # how many play a forum game unless the settings say otherwise

_SPECS: dict[str, FormatSpec] = {FORUM_SPEC.key: FORUM_SPEC}


def add_spec(spec: FormatSpec) -> None:
    """Make a format known to the settings (the registry adds each edition's)."""
    known = _SPECS.get(spec.key)
    if known is not None and known != spec:
        raise ValueError(f"another format is called {spec.key!r}")
    _SPECS[spec.key] = spec


def remove_spec(key: str) -> None:
    """Forget a format (an edition unregistered); the forum stays."""
    if key != FORUM_SPEC.key:
        _SPECS.pop(key, None)


def spec_of(key: str) -> FormatSpec:
    """What the settings know of the format named `key`; KeyError if none brought it."""
    return _SPECS[key]


def format_keys() -> tuple[str, ...]:
    """Every known format's key, the forum first, then in the order they were added."""
    return tuple(_SPECS)
