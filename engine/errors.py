"""Rule errors: every refused command raises one, with a stable code (the catalog key)."""

from __future__ import annotations

from typing import Any


class RuleError(Exception):
    """A command the rules refuse; `code` names the catalog message, `values` fill it."""

    def __init__(self, code: str, **values: Any) -> None:
        super().__init__(code)
        self.code = code
        self.values = values

    def __repr__(self) -> str:
        return f"RuleError({self.code!r}, {self.values!r})"


# Every code the engine raises, so catalogs can be checked for completeness.
RULE_ERROR_CODES: frozenset[str] = frozenset(
    {
        "game_exists",
        "no_game",
        "not_in_lobby",
        "already_joined",
        "not_joined",
        "lobby_full",
        "not_enough_players",
        "pack_too_small",
        "role_taken",
        "role_not_a_suspect",
        "roles_not_chosen_mode",
        "only_host_or_admin",
        "admin_only",
        "game_not_running",
        "game_paused",
        "game_not_paused",
        "day_not_open",
        "not_a_player",
        "player_inactive",
        "cannot_target_self",
        "no_suggestions_left",
        "target_limit_reached",
        "received_limit_reached",
        "eliminated_cannot_suggest",
        "card_not_in_play",
        "card_wrong_category",
        "suggestion_not_found",
        "not_your_answer",
        "already_answered",
        "suggestion_voided",
        "card_not_held",
        "card_not_named",
        "must_refute",
        "already_accused",
        "invalid_setting",
        "unknown_setting",
        "setting_locked",
        "already_in_game",
        "invalid_extension",
        "target_not_in_game",
        "seat_not_active",
        "suggestion_already_made",
        "invalid_pack",
    }
)
