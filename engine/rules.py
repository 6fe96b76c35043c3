"""Checks shared by the command handlers; each raises a RuleError with its code."""

from __future__ import annotations

from datetime import datetime

from engine.cards import CATEGORY_ORDER, CardId
from engine.commands import Command
from engine.errors import (
    AdminOnly,
    CardNotInPlay,
    CardWrongCategory,
    DayNotOpen,
    GameIsPaused,
    GameNotRunning,
    NoGame,
    NotAPlayer,
    NotInLobby,
    OnlyHostOrAdmin,
    PlayerInactive,
    SuggestionNotFound,
)
from engine.state import Game, Phase, Player, Suggestion


def require_game(state: Game | None) -> Game:
    if state is None:
        raise NoGame()
    return state


def require_lobby(state: Game | None) -> Game:
    game = require_game(state)
    if game.phase is not Phase.LOBBY:
        raise NotInLobby()
    return game


def require_dealt(game: Game) -> None:
    """A game whose cards are dealt and which has not ended (paused or not)."""
    if game.phase is not Phase.RUNNING:
        raise GameNotRunning()


def require_running(state: Game | None) -> Game:
    """A started, unfinished, unpaused game."""
    game = require_game(state)
    require_dealt(game)
    if game.paused:
        raise GameIsPaused()
    return game


def require_admin(cmd: Command) -> None:
    if not cmd.actor_is_admin:
        raise AdminOnly()


def require_host_or_admin(game: Game, cmd: Command) -> None:
    """The lobby's host (see Game.lobby_host) or a chat admin; in an empty lobby, an admin."""
    if cmd.actor_is_admin:
        return
    host = game.lobby_host
    if host is None:
        raise AdminOnly()
    if cmd.actor != host:
        raise OnlyHostOrAdmin(host=host)


def require_player(game: Game, user: int) -> Player:
    player = game.player_of(user)
    if player is None:
        raise NotAPlayer()
    return player


def require_active(player: Player) -> Player:
    if not player.active:
        raise PlayerInactive()
    return player


def require_open_day(game: Game, now: datetime) -> None:
    """A day is open, and its end has not come (even if the clock has not fired yet).

    The refusal says when the next day opens: at once (`next_day_at`, the day's end that
    has come) or when the accusation window closes (`window_closes_at`)."""
    ended_at = game.day_ends_at
    over = ended_at is not None and now >= ended_at
    if not game.day_open or over:
        if game.day_open and ended_at is not None and may_open_day_during_window(game, ended_at):
            raise DayNotOpen(next_day_at=ended_at)
        closes_at = game.window.closes_at if game.window_open and game.window else None
        raise DayNotOpen(window_closes_at=closes_at)


def may_open_day_during_window(game: Game, now: datetime) -> bool:
    """A day opens while a window is open only if enough of the window remains."""
    if game.window is None or not game.window.open:
        return True
    left = game.window.closes_at - now
    return left >= game.settings.effective_open_day_if_window_left


def require_cards(game: Game, cards: tuple[CardId, CardId, CardId]) -> None:
    """One suspect, one weapon, one place, all in play."""
    deck = set(game.deck)
    for card, category in zip(cards, CATEGORY_ORDER, strict=True):
        if card not in deck:
            raise CardNotInPlay(card=card)
        if game.pack.category_of(card) is not category:
            raise CardWrongCategory(card=card, category=category.value)


def require_suggestion(game: Game, suggestion_id: int) -> Suggestion:
    suggestion = game.suggestion(suggestion_id)
    if suggestion is None:
        raise SuggestionNotFound(suggestion=suggestion_id)
    return suggestion


def matching(hand: tuple[CardId, ...], named: tuple[CardId, ...]) -> tuple[CardId, ...]:
    """The named cards a hand holds, in the order named (suspect, weapon, place): what a
    refuter may show, in both formats."""
    return tuple(c for c in named if c in hand)


def gm_choice(
    hand: tuple[CardId, ...], named: tuple[CardId, ...], standing: tuple[CardId, ...] = ()
) -> CardId | None:
    """The card the GM shows for a silent or absent refuter: the first of their standing
    answer (the order of their own cards they chose) that was named, else the first match,
    suspect → weapon → place; None if the hand holds none."""
    matches = matching(hand, named)
    for card in standing:
        if card in matches:
            return card
    return matches[0] if matches else None


def matching_cards(game: Game, suggestion: Suggestion) -> tuple[CardId, ...]:
    """The named cards the target holds, in the order suspect, weapon, place."""
    return matching(game.players[suggestion.target].hand, suggestion.cards)
