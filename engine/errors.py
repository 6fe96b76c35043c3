"""Rule errors: every refused command raises one kind, with a stable code (the catalog key).

Each kind is a subclass of RuleError named for what went wrong (python-chess style); its
`code` is the key of its message in the catalogs (`error.<code>`), and RULE_ERROR_CODES,
the list the catalogs are checked against, is derived from the subclasses.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from types import MappingProxyType
from typing import Any, ClassVar

_KINDS: dict[str, type[RuleError]] = {}


class RuleError(Exception):
    """A command the rules refuse; `code` names the catalog message, `values` fill it.

    Raise one of its kinds (`NoSuggestionsLeft(resets_at=...)`), never RuleError itself.
    """

    code: ClassVar[str]

    def __init_subclass__(cls, *, code: str, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if code in _KINDS:
            raise TypeError(f"rule error code {code!r} taken by {_KINDS[code].__name__}")
        cls.code = code
        _KINDS[code] = cls

    def __init__(self, **values: Any) -> None:
        if type(self) is RuleError:
            raise TypeError("raise a kind of RuleError (engine.errors), not RuleError itself")
        super().__init__(self.code)
        self.values = values

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.values!r})"


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


# --- the classic format (table Clue) ----------------------------------------------------
class WrongFormat(RuleError, code="wrong_format"):
    """A command of the other format (forum or classic) than the game's."""


class NotYourTurn(RuleError, code="not_your_turn"):
    pass


class AlreadyRolled(RuleError, code="already_rolled"):
    pass


class AlreadyMoved(RuleError, code="already_moved"):
    pass


class MustRollFirst(RuleError, code="must_roll_first"):
    pass


class OutOfReach(RuleError, code="out_of_reach"):
    """The place is not reachable with this roll (or is no place of the board)."""


class NoSecretPassage(RuleError, code="no_secret_passage"):
    pass


class CannotStay(RuleError, code="cannot_stay"):
    """Only a player moved into the room by another's suggestion may stay to suggest."""


class NotInRoom(RuleError, code="not_in_room"):
    pass


class NoClueCard(RuleError, code="no_clue_card"):
    """The 2023 edition: a clue card is drawn for a magnifying glass rolled this turn, once,
    before the move."""


class AccuseOutsideRoom(RuleError, code="accuse_outside_room"):
    """The 2023 edition: an accusation is made from a room (any room)."""


class AccuseAfterMoving(RuleError, code="accuse_after_moving"):
    """The 2023 edition: an accusation comes after the roll and the move (or staying, or
    the passage), never before."""


class MustEnterRoom(RuleError, code="must_enter_room"):
    """A suggestion follows entering a room this turn (or staying after being moved in)."""


class AlreadySuggested(RuleError, code="already_suggested"):
    pass


class MustMove(RuleError, code="must_move"):
    """Skipping a turn is not allowed: roll and move (or take a passage, or stay) first."""


class RoomInReach(RuleError, code="room_in_reach"):
    """The roll leaves no walk of exactly its count but reaches a room: the player enters
    it, since giving up a turn is against the rules."""


class RefutationPending(RuleError, code="refutation_pending"):
    pass


class NotYourRefutation(RuleError, code="not_your_refutation"):
    pass


class NotAway(RuleError, code="not_away"):
    pass


# --- Liars Edition (engine/liars/) -------------------------------------------------------
class AccuseAtStart(RuleError, code="accuse_at_start"):
    """Liars Edition: an accusation is made at the start of a turn, before rolling."""


class NoInvestigationCard(RuleError, code="no_investigation_card"):
    """Not now: the card is played once a turn, after moving, by a player with evidence."""


class NotThatAction(RuleError, code="not_that_action"):
    """A truth card is read as it is: its own action only."""


class NotYourCall(RuleError, code="not_your_call"):
    """Only another player still in the game may call Liar!, while the window is open."""


class NotYourChoice(RuleError, code="not_your_choice"):
    """No card (or room, or player) is asked of you now."""


class InvestigationPending(RuleError, code="investigation_pending"):
    """The others still answer the investigation card (Liar!, a card face up, passes)."""


class InvestigationFirst(RuleError, code="investigation_first"):
    """The investigation card is a step of every turn: play it before ending the turn
    (skipped only with no evidence cards in hand)."""


class NoCardsToPeek(RuleError, code="no_cards_to_peek"):
    """The chosen player holds no evidence card (or is the reader)."""


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


RULE_ERRORS: Mapping[str, type[RuleError]] = MappingProxyType(dict(_KINDS))
"""Every kind of rule error by its code, derived from the subclasses above."""

RULE_ERROR_CODES: frozenset[str] = frozenset(RULE_ERRORS)
"""Every code the engine raises, so catalogs can be checked for completeness."""
