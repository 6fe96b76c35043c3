"""evolve(state, event) -> state: apply one event. No rule is checked here.

The forum's and the table's events fold by the table here (`CORE_FOLDS`); an edition's
own by its format's (`Game.format.events`). The state knows its format (the event that
opens a lobby or changes its settings carries it), so no registry is needed here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from datetime import datetime, timedelta
from types import MappingProxyType
from typing import Any

from engine import events as ev
from engine.computer import detective_level
from engine.frozen import replace
from engine.state import Accusation, Answer, Game, LobbyEntry, Phase, Player, Suggestion, Window
from engine.table.evolve import TABLE_HANDLERS, seat_handed_over, table_after_pause, turn_logged


def _player(state: Game, seat: int, **changes: Any) -> Game:
    players = list(state.players)
    players[seat] = replace(players[seat], **changes)
    return replace(state, players=tuple(players))


def _suggestion(state: Game, suggestion_id: int, **changes: Any) -> Game:
    suggestions = list(state.suggestions)
    suggestions[suggestion_id - 1] = replace(suggestions[suggestion_id - 1], **changes)
    return replace(state, suggestions=tuple(suggestions))


def _moved(state: Game, seat: int) -> Game:
    """A move of the seat's own: not silent today."""
    return _player(state, seat, idle_days=0, moved_day=state.day)


def _penalize(state: Game, suggestion_id: int) -> Game:
    target = state.suggestions[suggestion_id - 1].target
    player = state.players[target]
    penalty = player.pending_penalty + state.settings.missed_answer_penalty
    return _player(state, target, pending_penalty=penalty)


def lobby_opened(state: Game | None, e: ev.LobbyOpened) -> Game:
    return Game(
        seed=e.seed,
        settings=e.settings,
        format=e.format,
        creator=e.creator,
        created_at=e.at,
        custom_pack=e.pack,
    )


def player_joined(state: Game, e: ev.PlayerJoined) -> Game:
    seated = state.detectives_seated + (detective_level(e.user) is not None)
    return replace(
        state, lobby=(*state.lobby, LobbyEntry(e.user, e.role)), detectives_seated=seated
    )


def player_left_lobby(state: Game, e: ev.PlayerLeftLobby) -> Game:
    return replace(state, lobby=tuple(x for x in state.lobby if x.user != e.user))


def role_chosen(state: Game, e: ev.RoleChosen) -> Game:
    lobby = tuple(LobbyEntry(x.user, e.role) if x.user == e.user else x for x in state.lobby)
    return replace(state, lobby=lobby)


def settings_changed(state: Game, e: ev.SettingsChanged) -> Game:
    if state.phase is Phase.LOBBY:
        return replace(state, settings=e.settings, format=e.format)
    return replace(state, pending_settings=e.settings)


def game_started(state: Game, e: ev.GameStarted) -> Game:
    players = tuple(
        Player(seat=i, user=d.user, role=d.role, hand=d.hand) for i, d in enumerate(e.seats)
    )
    return replace(
        state,
        phase=Phase.RUNNING,
        lobby=(),
        players=players,
        deck=e.deck,
        envelope=e.envelope,
        computers_played=any(detective_level(d.user) is not None for d in e.seats),
    )


def _today_penalty(p: Player, at: datetime) -> Player:
    """A day opens: a penalty owed applies today, or waits while the player is away."""
    if p.away_at(at):
        return replace(p, penalty_today=0)
    return replace(p, penalty_today=p.pending_penalty, pending_penalty=0)


def day_opened(state: Game, e: ev.DayOpened) -> Game:
    players = tuple(_today_penalty(p, e.at) for p in state.players)
    settings = state.pending_settings or state.settings
    return replace(
        state,
        settings=settings,
        pending_settings=None,
        players=players,
        day=e.day,
        day_open=True,
        day_opened_at=e.at,
        day_ends_at=e.ends_at,
        today_from=len(state.suggestions),
    )


def day_ended(state: Game, e: ev.DayEnded) -> Game:
    return replace(state, day_open=False)


def day_extended(state: Game, e: ev.DayExtended) -> Game:
    grace = state.settings.effective_answer_grace
    state = replace(state, day_ends_at=e.ends_at)
    suggestions = tuple(
        replace(s, answer_due=max(e.ends_at, s.made_at + grace))
        if s.day == e.day and s.answer == Answer.PENDING
        else s
        for s in state.suggestions
    )
    return replace(state, suggestions=suggestions)


def suggestion_made(state: Game, e: ev.SuggestionMade) -> Game:
    made = Suggestion(
        id=e.suggestion,
        day=e.day,
        number=e.number,
        suggester=e.suggester,
        target=e.target,
        suspect=e.suspect,
        weapon=e.weapon,
        place=e.place,
        made_at=e.at,
        answer_due=e.answer_due,
    )
    state = replace(state, suggestions=(*state.suggestions, made))
    return _moved(state, e.suggester)


def _answered(state: Game, e: ev.SuggestionRefuted | ev.SuggestionNotRefuted) -> Game:
    """The answer's penalty, or (the target's own answer) a move of theirs."""
    if e.penalized:
        return _penalize(state, e.suggestion)
    if e.by_gm or (isinstance(e, ev.SuggestionNotRefuted) and e.automatic):
        return state
    return _moved(state, state.suggestions[e.suggestion - 1].target)


def suggestion_refuted(state: Game, e: ev.SuggestionRefuted) -> Game:
    changes = {"answer": Answer.REFUTED, "card": e.card, "by_gm": e.by_gm}
    state = _suggestion(state, e.suggestion, penalized=e.penalized, **changes)
    return _answered(state, e)


def suggestion_not_refuted(state: Game, e: ev.SuggestionNotRefuted) -> Game:
    changes = {"answer": Answer.NOT_REFUTED, "by_gm": e.by_gm}
    state = _suggestion(state, e.suggestion, penalized=e.penalized, **changes)
    return _answered(state, e)


def suggestion_voided(state: Game, e: ev.SuggestionVoided) -> Game:
    return _suggestion(state, e.suggestion, answer=Answer.VOIDED, refunded=e.refunded)


def accusation_made(state: Game, e: ev.AccusationMade) -> Game:
    made = Accusation(e.seat, e.window, e.suspect, e.weapon, e.place, e.at)
    state = replace(state, accusations=(*state.accusations, made))
    return _moved(_player(state, e.seat, accused=True), e.seat)


def window_opened(state: Game, e: ev.WindowOpened) -> Game:
    return replace(state, window=Window(e.window, e.at, e.closes_at))


def accusation_judged(state: Game, e: ev.AccusationJudged) -> Game:
    accusations = tuple(
        replace(a, correct=e.correct) if a.seat == e.seat else a for a in state.accusations
    )
    state = replace(state, accusations=accusations)
    return state if e.correct else _player(state, e.seat, eliminated=True)


def window_closed(state: Game, e: ev.WindowClosed) -> Game:
    assert state.window is not None
    return replace(state, window=replace(state.window, open=False))


def player_left(state: Game, e: ev.PlayerLeft) -> Game:
    return _player(state, e.seat, active=False, removed=e.removed)


def seat_replaced(state: Game, e: ev.SeatReplaced) -> Game:
    computer = detective_level(e.new_user) is not None
    state = replace(
        state,
        table=seat_handed_over(state.table, e.seat),
        detectives_seated=state.detectives_seated + computer,
        computers_played=state.computers_played or computer,
    )
    return _player(state, e.seat, user=e.new_user, active=True, removed=False)


def game_paused(state: Game, e: ev.GamePaused) -> Game:
    return replace(state, paused_at=e.at)


def _shift(moment: datetime | None, by: timedelta) -> datetime | None:
    return None if moment is None else moment + by


def game_resumed(state: Game, e: ev.GameResumed) -> Game:
    """The clock stopped while paused: every pending deadline moves by the pause."""
    by = e.at - e.paused_at
    window = state.window
    if window is not None and window.open:
        window = replace(window, closes_at=window.closes_at + by)
    suggestions = tuple(
        replace(s, answer_due=s.answer_due + by) if s.answer == Answer.PENDING else s
        for s in state.suggestions
    )
    return replace(
        state,
        paused_at=None,
        day_ends_at=_shift(state.day_ends_at, by) if state.day_open else state.day_ends_at,
        window=window,
        suggestions=suggestions,
        table=table_after_pause(state.table, by),
    )


def reminder_sent(state: Game, e: ev.ReminderSent) -> Game:
    return replace(state, reminded_day=e.day)


def went_away(state: Game, e: ev.WentAway) -> Game:
    taken = state.players[e.seat].away_days + e.days
    return _player(state, e.seat, away_until=e.until, away_from=e.at, away_days=taken)


def came_back(state: Game, e: ev.CameBack) -> Game:
    taken = state.players[e.seat].away_days - e.refund
    return _player(state, e.seat, away_until=None, away_days=taken)


def standing_answer_set(state: Game, e: ev.StandingAnswerSet) -> Game:
    return _player(state, e.seat, standing=e.order)


def player_idle(state: Game, e: ev.PlayerIdle) -> Game:
    return _player(state, e.seat, idle_days=e.days)


def game_ended(state: Game, e: ev.GameEnded) -> Game:
    window = state.window
    if window is not None and window.open:
        window = replace(window, open=False)
    return replace(
        state,
        phase=Phase.ENDED,
        day_open=False,
        window=window,
        paused_at=None,
        winner=e.winner,
        end_reason=e.reason,
        ended_at=e.at,
    )


Fold = Callable[[Any, Any], Game]

# The forum's and the table's events, each with how it changes the state.
CORE_FOLDS: Mapping[type[ev.Event], Fold] = MappingProxyType(
    {
        ev.LobbyOpened: lobby_opened,
        ev.PlayerJoined: player_joined,
        ev.PlayerLeftLobby: player_left_lobby,
        ev.RoleChosen: role_chosen,
        ev.SettingsChanged: settings_changed,
        ev.GameStarted: game_started,
        ev.DayOpened: day_opened,
        ev.DayEnded: day_ended,
        ev.DayExtended: day_extended,
        ev.SuggestionMade: suggestion_made,
        ev.SuggestionRefuted: suggestion_refuted,
        ev.SuggestionNotRefuted: suggestion_not_refuted,
        ev.SuggestionVoided: suggestion_voided,
        ev.AccusationMade: accusation_made,
        ev.WindowOpened: window_opened,
        ev.AccusationJudged: accusation_judged,
        ev.WindowClosed: window_closed,
        ev.PlayerLeft: player_left,
        ev.SeatReplaced: seat_replaced,
        ev.GamePaused: game_paused,
        ev.GameResumed: game_resumed,
        ev.ReminderSent: reminder_sent,
        ev.GameEnded: game_ended,
        ev.WentAway: went_away,
        ev.CameBack: came_back,
        ev.StandingAnswerSet: standing_answer_set,
        ev.PlayerIdle: player_idle,
        **TABLE_HANDLERS,
    }
)


def evolve(state: Game | None, event: ev.Event) -> Game:
    """The state after one event."""
    if state is None and not isinstance(event, ev.LobbyOpened):
        raise ValueError(f"{type(event).__name__} before LobbyOpened")
    fold = CORE_FOLDS.get(type(event))
    if fold is None:
        assert state is not None
        fold = state.format.events[type(event)]  # an edition's own event
    after: Game = fold(state, event)
    if not turn_logged(after):
        return replace(after, changed_at=event.at)
    log = (event,) if isinstance(event, ev.TurnStarted) else (*after.turn_log, event)
    return replace(after, changed_at=event.at, turn_log=log)


def replay(events: Iterable[ev.Event], state: Game | None = None) -> Game | None:
    """Fold events into a state, from nothing or from a snapshot."""
    for event in events:
        state = evolve(state, event)
    return state
