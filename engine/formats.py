"""Game formats as the settings see them (`FormatSpec`): the forum's days, or a table
edition's player range and cards. Each format (engine/format.py) brings its own spec, and
answers what the settings cannot alone (how many play, whose roles are chosen, which
cards, which settings it refuses); a registry (engine/registry.py) knows them by key.

`FormatBase` is what the state itself holds of a game's format (`Game.format`): its spec
and how its own events change the state; engine/format.py `Format` is the whole interface."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import FrozenInstanceError, dataclass
from types import MappingProxyType
from typing import Any, ClassVar

from engine.cards import CUSTOM, PACKS, Pack
from engine.errors import InvalidSetting, SettingReason
from engine.settings import (
    RoleAssignment,
    Settings,
    new_game_settings,
    require_pack_available,
)

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

    def player_range(self, settings: Settings) -> tuple[int, int]:
        """How many may play: the format's own range (a table edition's `players`, the
        forum's FORUM_PLAYERS) unless an admin set `min_players` or `max_players`, and at
        a table always within the edition's range: 3 to 6 in the classic, 2 to 6 in the
        2023 edition."""
        low, high = self.players if self.players is not None else FORUM_PLAYERS
        least = low if settings.min_players is None else settings.min_players
        most = high if settings.max_players is None else settings.max_players
        if self.players is not None:
            return max(least, low), max(min(most, high), low)
        return least, most

    def chooses_roles(self, settings: Settings) -> bool:
        """Players choose their suspect when joining: the setting, or always in an edition
        whose players always choose (the 2023 edition; whoever has not chosen gets a
        random one)."""
        return settings.role_assignment is RoleAssignment.CHOSEN or self.roles_chosen

    def pack_of(self, settings: Settings, own: Pack | None) -> Pack:
        """The pack a game plays with: the edition's own cards (the 2023 edition's, the
        Liars Edition's), or the chat's own when the settings name it, else the named one."""
        if self.pack is not None:
            return self.pack
        if settings.pack == CUSTOM and own is not None:
            return own
        return PACKS.get(settings.pack, PACKS["classic"])

    def check(self, settings: Settings) -> None:
        """Refuse settings this format cannot play with: a table plays the classic pack
        (an edition's own cards aside); a maximum no lower than the minimum in force."""
        if not self.has_days and settings.pack != "classic":
            raise InvalidSetting(setting="format", reason=SettingReason.CLASSIC_PACK)
        if settings.max_players is None:
            return
        least = settings.min_players
        if least is None:
            least = (self.players or FORUM_PLAYERS)[0]
        if settings.max_players < least:
            raise InvalidSetting(
                setting="max_players", reason=SettingReason.AT_LEAST, minimum=least
            )


FORUM_SPEC = FormatSpec("forum")
FORUM_PLAYERS = (3, 10)  # how many play a forum game unless the settings say otherwise

Specs = Mapping[str, FormatSpec]  # every format's spec by key (a registry's `specs`)


def spec_for(settings: Settings, specs: Specs) -> FormatSpec:
    """The spec of the format the settings name, the settings checked against it
    (InvalidSetting: no such format among `specs`, or settings it cannot play with)."""
    spec = specs.get(settings.format)
    if spec is None:
        choices = ", ".join(specs)
        raise InvalidSetting(setting="format", reason=SettingReason.ONE_OF, choices=choices)
    spec.check(settings)
    return spec


# How an event of a format's own changes the state (state -> event -> state; the state's
# type is engine/state.py's `Game`, which imports this module).
StateFold = Callable[[Any, Any], Any]


class _Unchanging:
    """Refuses every attribute set on an instance (a frozen dataclass refuses its own
    class's and its fields only; this refuses its subclasses' too)."""

    __slots__ = ()

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to {name!r}: a format never changes")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete {name!r}: a format never changes")


@dataclass(frozen=True, eq=False)
class FormatBase(_Unchanging):
    """What a game's state holds of its format (`Game.format`, one object per format,
    found by its key): its spec, and how its own events change the state (none: the
    forum's and the table's are the core's, engine/evolve.py). Formats are equal only to
    themselves; none changes once made."""

    # Its key, player range, own cards, roles always chosen, settings (each format's own).
    spec: ClassVar[FormatSpec]
    events: ClassVar[Mapping[Any, StateFold]] = MappingProxyType({})

    @property
    def key(self) -> str:
        """The format's stable name: `Settings.format`, and the bot's key for it."""
        return self.spec.key

    @property
    def has_days(self) -> bool:
        """Played over days (the forum), else turn by turn at a table."""
        return self.spec.has_days


@dataclass(frozen=True)
class NewGame:
    """How a chat's new game opens: its settings, the pack its `OpenLobby` carries (the
    chat's own, only when the settings name it), the pack it plays with, and whether the
    settings had to fall back (see `new_game_settings`)."""

    settings: Settings
    own_pack: Pack | None
    pack: Pack
    fell_back: bool


def new_game(defaults: Settings, chat_pack: Pack | None, specs: Specs) -> NewGame:
    """A chat's next game, from the chat's defaults and its own pack (if it has one), in
    a format of `specs` (InvalidSetting: the defaults name none of them)."""
    settings, fell_back = new_game_settings(defaults, chat_pack is not None)
    own = chat_pack if settings.pack == CUSTOM else None
    return NewGame(settings, own, spec_for(settings, specs).pack_of(settings, own), fell_back)


def change_chat_defaults(
    current: Settings, changes: dict[str, Any], *, has_custom_pack: bool, specs: Specs
) -> Settings:
    """A chat's defaults for its new games, changed, in a format of `specs` that takes
    them; "custom" only once the chat has a pack."""
    changed = current.changed(**changes)
    if "pack" in changes:
        require_pack_available(changed.pack, has_custom_pack)
    spec_for(changed, specs)
    return changed
