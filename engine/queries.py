"""What a player, the thread, or everybody at the end may know. Nothing more."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from engine.accusations import require_may_accuse
from engine.cards import CATEGORY_ORDER, CardId, Category
from engine.commands import Command
from engine.errors import GameNotRunning, NotAPlayer, NotYourAnswer, RuleError, WrongFormat
from engine.events import EndReason
from engine.format import format_of
from engine.formats import Specs
from engine.rules import require_admin, require_dealt
from engine.settings import SCHEDULE_SETTINGS, Settings
from engine.state import Accusation, Answer, Game, Phase, Suggestion


@dataclass(frozen=True)
class SeatInfo:
    """Public facts about one seat."""

    seat: int
    user: int
    role: CardId
    active: bool
    removed: bool
    accused: bool
    eliminated: bool
    quota_left: int
    owes: int


@dataclass(frozen=True)
class PublicView:
    """What the thread may know: no hand, no envelope, no shown card."""

    phase: Phase
    day: int
    day_open: bool
    day_ends_at: datetime | None
    paused: bool
    window_closes_at: datetime | None
    cards: dict[Category, tuple[CardId, ...]]
    seats: tuple[SeatInfo, ...]
    lobby: tuple[int, ...]
    winner: int | None


@dataclass(frozen=True)
class PlayerView:
    """What one player may know privately: their own hand, and their answers."""

    seat: int
    hand: tuple[CardId, ...]
    role: CardId
    quota_left: int
    owes: tuple[Suggestion, ...]
    owed: tuple[Suggestion, ...]
    shown_to_me: tuple[tuple[int, CardId], ...]
    can_accuse: bool
    my_accusation: Accusation | None


@dataclass(frozen=True)
class Reveal:
    """Everything, once the game has ended."""

    envelope: tuple[CardId, CardId, CardId]
    hands: tuple[tuple[int, tuple[CardId, ...]], ...]
    accusations: tuple[Accusation, ...]
    winner: int | None
    reason: EndReason | None


def public_view(game: Game) -> PublicView:
    seats = tuple(
        SeatInfo(
            seat=p.seat,
            user=p.user,
            role=p.role,
            active=p.active,
            removed=p.removed,
            accused=p.accused,
            eliminated=p.eliminated,
            quota_left=game.quota_left(p),
            owes=len(game.answers_owed_by(p.seat)),
        )
        for p in game.players
    )
    window = game.window
    return PublicView(
        phase=game.phase,
        day=game.day,
        day_open=game.day_open,
        day_ends_at=game.day_ends_at if game.day_open else None,
        paused=game.paused,
        window_closes_at=window.closes_at if window is not None and window.open else None,
        cards={category: game.in_play(category) for category in CATEGORY_ORDER},
        seats=seats,
        lobby=tuple(entry.user for entry in game.lobby),
        winner=game.winner,
    )


def player_view(game: Game, user: int) -> PlayerView:
    """A player's private view; a non-player gets a RuleError, never someone else's hand."""
    player = game.player_of(user)
    if player is None:
        raise NotAPlayer()
    shown = tuple(
        (s.id, s.card)
        for s in game.suggestions
        if s.suggester == player.seat and s.answer is Answer.REFUTED and s.card is not None
    )
    shown += tuple(  # the table's suggestions, numbered the same way
        (s.number, s.card)
        for s in format_of(game).table_suggestions(game)
        if s.suggester == player.seat and s.card is not None
    )
    mine = next((a for a in game.accusations if a.seat == player.seat), None)
    return PlayerView(
        seat=player.seat,
        hand=player.hand,
        role=player.role,
        quota_left=game.quota_left(player),
        owes=game.answers_owed_by(player.seat),
        owed=game.answers_owed_to(player.seat),
        shown_to_me=shown,
        can_accuse=game.running and game.can_accuse(player),
        my_accusation=mine,
    )


def answer_choices(game: Game, user: int, suggestion_id: int) -> tuple[CardId, ...]:
    """The cards a target may refute with: exactly their named cards (empty: no refutation)."""
    s = game.suggestion(suggestion_id)
    if s is None or game.players[s.target].user != user:
        raise NotYourAnswer(suggestion=suggestion_id)
    hand = game.players[s.target].hand
    return tuple(card for card in s.cards if card in hand)


def accusation_refusal(game: Game, user: int) -> RuleError | None:
    """Why the person may not accuse in this game now (None: they may), before they choose."""
    try:
        require_may_accuse(game, user)
    except RuleError as error:
        return error
    return None


def suggestion_refusal(game: Game) -> RuleError | None:
    """Why no forum suggestion can be made in this game (None: a forum game whose cards are
    dealt and which has not ended), asked before typed card names are read against the cards
    in play or a composer is opened: the first checks `make_suggestion` meets (a table
    game's format takes none, then `require_running`), a pause left to it."""
    if not format_of(game).has_days:
        return WrongFormat()
    try:
        require_dealt(game)
    except RuleError as error:
        return error
    return None


def admin_refusal(actor_is_admin: bool) -> RuleError | None:
    """Why an admin command is refused to this person (None: it is not), asked before
    they are asked for anything else; `decide` checks the same on the command itself."""
    try:
        require_admin(Command(actor_is_admin=actor_is_admin))
    except RuleError as error:
        return error
    return None


def settings_are_the_games(game: Game | None) -> bool:
    """Whether a settings change goes to this game (open or running) rather than to the
    chat's defaults for its next games (no game, or it has ended)."""
    return game is not None and game.phase is not Phase.ENDED


def settings_refusal(game: Game | None, actor_is_admin: bool) -> RuleError | None:
    """Why this person may not change settings here (None: they may try). The chat's
    defaults are the admins' to set; in a game `decide` says who may change what
    (`ChangeSettings`)."""
    if settings_are_the_games(game):
        return None
    return admin_refusal(actor_is_admin)


@dataclass(frozen=True)
class SettingsScope:
    """What a settings menu offers: the values (a running game's pending ones), the
    settings its format reads, those that may change now, and whether a change waits for
    the next day (a running forum game's schedule)."""

    settings: Settings
    shown: tuple[str, ...]
    changeable: frozenset[str]
    from_next_day: bool


def settings_scope(game: Game | None, defaults: Settings, specs: Specs) -> SettingsScope:
    """The settings a change here goes to (the game's, else the chat's `defaults`, whose
    format's spec is among `specs`: a registry's), as `change_settings` and
    `change_chat_defaults` will take them."""
    if not settings_are_the_games(game):
        shown = specs[defaults.format].setting_names
        return SettingsScope(defaults, shown, frozenset(shown), False)
    assert game is not None
    current = game.pending_settings or game.settings
    shown = game.format.spec.setting_names
    if not game.running:
        return SettingsScope(current, shown, frozenset(shown), False)
    changeable = frozenset(shown) & SCHEDULE_SETTINGS
    return SettingsScope(current, shown, changeable, game.format.has_days)


def reveal(game: Game) -> Reveal:
    """The solution and every hand; only for an ended game."""
    if game.phase is not Phase.ENDED or game.envelope is None:
        raise GameNotRunning()
    return Reveal(
        envelope=game.envelope,
        hands=tuple((p.seat, p.hand) for p in game.players),
        accusations=game.accusations,
        winner=game.winner,
        reason=game.end_reason,
    )


def winner(game: Game) -> int | None:
    """The winning seat, if the game was won."""
    return game.winner
