"""Rule errors: every refused command raises one kind, with a stable code (the catalog key).

Each kind is a subclass of RuleError named for what went wrong (python-chess style); its
`code` is the key of its message in the catalogs (`error.<code>`). This module holds the
kinds every format shares; a format's own live in its package (engine/table/errors.py,
engine/y2023/errors.py, engine/liars/errors.py), each module declaring its kinds in a
tuple (`kinds_in`), and engine/error_codes.py collects them all (RULE_ERROR_CODES).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from enum import StrEnum
from typing import Any, ClassVar


class RuleError(Exception):
    """A command the rules refuse; `code` names the catalog message, `values` fill it.

    Raise one of its kinds (`NoSuggestionsLeft(resets_at=...)`), never RuleError itself.
    """

    code: ClassVar[str]

    def __init_subclass__(cls, *, code: str, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        taken = next((k for k in _kinds_below(RuleError) if vars(k).get("code") == code), None)
        if taken is not None:
            raise TypeError(f"rule error code {code!r} taken by {taken.__name__}")
        cls.code = code

    def __init__(self, **values: Any) -> None:
        if type(self) is RuleError:
            raise TypeError("raise a kind of RuleError (engine.errors), not RuleError itself")
        super().__init__(self.code)
        self.values = values

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.values!r})"


def _kinds_below(base: type[RuleError]) -> Iterator[type[RuleError]]:
    """Every kind defined so far under `base` (the class tree, read when asked)."""
    for kind in base.__subclasses__():
        yield kind
        yield from _kinds_below(kind)


def kinds_in(module: str, names: Mapping[str, object]) -> tuple[type[RuleError], ...]:
    """The kinds of rule error a module defines (`kinds_in(__name__, globals())` at its end),
    in the order it defines them: the tuple a format declares as its own errors."""
    return tuple(
        kind
        for kind in names.values()
        if isinstance(kind, type)
        and issubclass(kind, RuleError)
        and kind is not RuleError
        and kind.__module__ == module
    )


# --- no game, or not in the right phase ------------------------------------------------
class GameExists(RuleError, code="game_exists"):
    """The chat topic already has a game that has not ended."""


class NoGame(RuleError, code="no_game"):
    pass


class NotInLobby(RuleError, code="not_in_lobby"):
    pass


class GameNotRunning(RuleError, code="game_not_running"):
    pass


class GameIsPaused(RuleError, code="game_paused"):
    pass


class GameNotPaused(RuleError, code="game_not_paused"):
    pass


class DayNotOpen(RuleError, code="day_not_open"):
    """Values: `next_day_at` (the next day opens at once) or `window_closes_at`."""


# --- the lobby ---------------------------------------------------------------------------
class AlreadyJoined(RuleError, code="already_joined"):
    pass


class NotJoined(RuleError, code="not_joined"):
    pass


class NotADetective(RuleError, code="not_a_detective"):
    """The one named is not a computer detective of this lobby."""


class LobbyFull(RuleError, code="lobby_full"):
    """Values: `maximum`."""


class NotEnoughPlayers(RuleError, code="not_enough_players"):
    """Values: `minimum`, `joined`."""


class PackTooSmall(RuleError, code="pack_too_small"):
    """Values: how many `suspects`, `weapons`, `places` are missing."""


class RoleTaken(RuleError, code="role_taken"):
    """Values: `card`."""


class RoleNotASuspect(RuleError, code="role_not_a_suspect"):
    """Values: `card`."""


class RolesNotChosenMode(RuleError, code="roles_not_chosen_mode"):
    pass


# --- who may do it -----------------------------------------------------------------------
class OnlyHostOrAdmin(RuleError, code="only_host_or_admin"):
    """Values: `host`."""


class AdminOnly(RuleError, code="admin_only"):
    pass


class NotAPlayer(RuleError, code="not_a_player"):
    pass


class PlayerInactive(RuleError, code="player_inactive"):
    pass


# --- suggestions -------------------------------------------------------------------------
class CannotTargetSelf(RuleError, code="cannot_target_self"):
    pass


class NoSuggestionsLeft(RuleError, code="no_suggestions_left"):
    """Values: `resets_at`."""


class TargetLimitReached(RuleError, code="target_limit_reached"):
    """Values: `limit`, `resets_at`."""


class ReceivedLimitReached(RuleError, code="received_limit_reached"):
    """Values: `limit`, `resets_at`."""


class EliminatedCannotSuggest(RuleError, code="eliminated_cannot_suggest"):
    pass


class TargetNotInGame(RuleError, code="target_not_in_game"):
    pass


class SuggestionAlreadyMade(RuleError, code="suggestion_already_made"):
    """A repeated press of the same button. Values: `number`."""


class CardNotInPlay(RuleError, code="card_not_in_play"):
    """Values: `card`."""


class CardWrongCategory(RuleError, code="card_wrong_category"):
    """Values: `card`, `category`."""


# --- answers -----------------------------------------------------------------------------
class SuggestionNotFound(RuleError, code="suggestion_not_found"):
    """Values: `suggestion`."""


class NotYourAnswer(RuleError, code="not_your_answer"):
    """Values: `suggestion`."""


class AlreadyAnswered(RuleError, code="already_answered"):
    """Values: `suggestion`."""


class SuggestionIsVoided(RuleError, code="suggestion_voided"):
    """Values: `suggestion`."""


class CardNotHeld(RuleError, code="card_not_held"):
    """Values: `card`."""


class CardNotNamed(RuleError, code="card_not_named"):
    """Values: `card`."""


class MustRefute(RuleError, code="must_refute"):
    """Values: `suggestion`."""


# --- accusations -------------------------------------------------------------------------
class AlreadyAccused(RuleError, code="already_accused"):
    pass


# --- formats ---------------------------------------------------------------------------
class WrongFormat(RuleError, code="wrong_format"):
    """A command of the other format (forum or classic) than the game's."""


# --- settings and packs ------------------------------------------------------------------
class SettingReason(StrEnum):
    """Why a setting's value is refused (the catalog's `invalid.<reason>`)."""

    AT_LEAST = "at_least"
    AT_MOST = "at_most"
    ONE_OF = "one_of"
    UNKNOWN_TIMEZONE = "unknown_timezone"
    UNKNOWN_PACK = "unknown_pack"
    NO_CUSTOM_PACK = "no_custom_pack"  # the chat has no pack of its own
    LOBBY_PACK = "lobby_pack"  # the lobby was opened without the chat's pack
    CLASSIC_PACK = "classic_pack"  # the classic format plays with the classic pack
    DECK_TOO_SMALL = "deck_too_small"  # Liars Edition: fewer investigation cards than seats


class PackReason(StrEnum):
    """Why a chat's own pack is refused (the catalog's `pack.invalid_<reason>`)."""

    COUNT = "count"
    LONG = "long"
    UNTYPABLE = "untypable"
    TWICE = "twice"


class InvalidSetting(RuleError, code="invalid_setting"):
    """Values: `setting`, `reason` (a SettingReason), and the reason's own values."""


class UnknownSetting(RuleError, code="unknown_setting"):
    """Values: `setting`."""


class SettingLocked(RuleError, code="setting_locked"):
    """Only the day schedule changes while a game runs. Values: `setting`."""


class InvalidPack(RuleError, code="invalid_pack"):
    """Values: `reason` (a PackReason), and the reason's own values."""


# --- admin -------------------------------------------------------------------------------
class AlreadyInGame(RuleError, code="already_in_game"):
    pass


class InvalidExtension(RuleError, code="invalid_extension"):
    pass


class SeatNotActive(RuleError, code="seat_not_active"):
    pass


# --- away players and standing answers (engine/presence.py) -------------------------------
class NotAway(RuleError, code="not_away"):
    pass


class AwayNotAllowed(RuleError, code="away_not_allowed"):
    """The game's settings give no away days."""


class AwayTooShort(RuleError, code="away_too_short"):
    """The moment given is not in the future."""


class AwayLimitReached(RuleError, code="away_limit"):
    """More away days than the game allows. Values: `limit`, `left` (days)."""


class TargetAway(RuleError, code="target_away"):
    """The game does not let away players be asked. Values: `until`."""


class StandingNotHeld(RuleError, code="standing_not_held"):
    """A standing answer names only the player's own cards. Values: `card`."""


SHARED_ERRORS: tuple[type[RuleError], ...] = kinds_in(__name__, globals())
"""The kinds every format shares (the forum's among them), in the order above."""
