"""Applying the table's events (every edition's board, turns and suggestions). No rule is
checked here; an edition's own events are folded by its package (`Edition.events`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime, timedelta
from types import MappingProxyType
from typing import Any

from engine import events as ev
from engine.frozen import replace
from engine.state import Accusation, Game
from engine.table.state import (
    REFUTE_CLOCK,
    TURN_CLOCK,
    MoveKind,
    Step,
    Table,
    TableSeat,
    TableSuggestion,
    TurnEnd,
)


def _table(state: Game) -> Table:
    assert state.table is not None
    return state.table


def _with(state: Game, **changes: Any) -> Game:
    return replace(state, table=replace(_table(state), **changes))


def _seat(state: Game, seat: int, **changes: Any) -> Game:
    seats = list(_table(state).seats)
    seats[seat] = replace(seats[seat], **changes)
    return _with(state, seats=tuple(seats))


def _suggestion(state: Game, **changes: Any) -> Game:
    table = _table(state)
    last = replace(table.suggestions[-1], **changes)
    return _with(state, suggestions=(*table.suggestions[:-1], last))


def _seat_of(state: Game, suspect: str) -> int | None:
    return next((p.seat for p in state.players if p.role == suspect), None)


def board_set_up(state: Game, e: ev.BoardSetUp) -> Game:
    seats = tuple(TableSeat() for _ in state.players)
    return replace(
        state, table=Table(board=e.board, tokens=e.tokens, weapons=e.weapons, seats=seats)
    )


def turn_started(state: Game, e: ev.TurnStarted) -> Game:
    return _with(
        state,
        turn=e.turn,
        current=e.seat,
        step=Step.ROLL,
        dice=(),
        entered=False,
        due=e.due,
        clocks_seen=(),
    )


def turn_skipped(state: Game, e: ev.TurnSkipped) -> Game:
    state = _with(
        state, turn=e.turn, current=e.seat, step=Step.ROLL, dice=(), due=None, clocks_seen=()
    )
    return _seat(state, e.seat, moved_in=False)


def dice_rolled(state: Game, e: ev.DiceRolled) -> Game:
    return _with(state, step=Step.MOVE, dice=e.dice)


def token_moved(state: Game, e: ev.TokenMoved) -> Game:
    table = _table(state)
    tokens = tuple((s, e.to if s == e.suspect else place) for s, place in table.tokens)
    state = _with(state, tokens=tokens)
    if e.kind in (MoveKind.WALK, MoveKind.PASSAGE):
        state = _with(state, step=Step.MOVED, entered=isinstance(e.to, str))
    seat = _seat_of(state, e.suspect)
    if seat is None:
        return state
    facts = _table(state).seats[seat]
    if e.kind is MoveKind.SUGGESTION:  # moved in (again): may suggest there next turn
        return _seat(state, seat, moved_in=True, suggested_in=None)
    if facts.suggested_in is not None and e.to != facts.suggested_in:
        return _seat(state, seat, suggested_in=None)  # left the room suggested in
    return state


def stayed_to_suggest(state: Game, e: ev.StayedToSuggest) -> Game:
    return _with(state, step=Step.MOVED, entered=True)


def weapon_moved(state: Game, e: ev.WeaponMoved) -> Game:
    weapons = tuple((w, e.room if w == e.weapon else r) for w, r in _table(state).weapons)
    return _with(state, weapons=weapons)


def table_suggestion_made(state: Game, e: ev.TableSuggestionMade) -> Game:
    made = TableSuggestion(
        number=e.suggestion,
        turn=e.turn,
        suggester=e.suggester,
        suspect=e.suspect,
        weapon=e.weapon,
        room=e.room,
        made_at=e.at,
    )
    table = _table(state)
    state = _with(state, step=Step.REFUTING, suggestions=(*table.suggestions, made))
    return _seat(state, e.suggester, suggested_in=e.room)


def could_not_refute(state: Game, e: ev.CouldNotRefute) -> Game:
    return _suggestion(state, passed=(*_table(state).suggestions[-1].passed, e.seat))


def refuter_asked(state: Game, e: ev.RefuterAsked) -> Game:
    return _suggestion(state, refuter=e.seat, due=e.due)


def _answered(state: Game, at: datetime) -> Game:
    """The turn's clock stood still while the refuters answered."""
    table = _table(state)
    waited = at - table.suggestions[-1].made_at
    due = table.due + waited if table.due is not None else None
    return _with(state, step=Step.SUGGESTED, due=due)


def card_shown(state: Game, e: ev.CardShown) -> Game:
    state = _suggestion(state, refuter=e.seat, card=e.card, by_gm=e.by_gm, answered=True, due=None)
    return _answered(state, e.at)


def nobody_refuted(state: Game, e: ev.NobodyRefuted) -> Game:
    return _answered(_suggestion(state, answered=True), e.at)


def accused_at_table(state: Game, e: ev.AccusedAtTable) -> Game:
    made = Accusation(e.seat, e.turn, e.suspect, e.weapon, e.place, e.at, correct=e.correct)
    players = list(state.players)
    players[e.seat] = replace(players[e.seat], accused=True, eliminated=not e.correct)
    return replace(state, accusations=(*state.accusations, made), players=tuple(players))


def turn_ended(state: Game, e: ev.TurnEnded) -> Game:
    missed = _table(state).seats[e.seat].missed
    if e.reason is TurnEnd.TIMED_OUT:
        missed += 1
    elif e.reason in (TurnEnd.ENDED, TurnEnd.ACCUSED):
        missed = 0
    return _seat(state, e.seat, moved_in=False, missed=missed)


def player_away(state: Game, e: ev.PlayerAway) -> Game:
    return _seat(state, e.seat, away=True)


def player_returned(state: Game, e: ev.PlayerReturned) -> Game:
    """Back: if the game waited on this player's turn, its timer starts now."""
    state = _seat(state, e.seat, away=False, missed=0)
    table = _table(state)
    if table.current == e.seat and table.due is None:
        state = _with(state, due=e.at + state.settings.turn_time)
    return state


def turn_timer_renewed(state: Game, e: ev.TurnTimerRenewed) -> Game:
    return _with(state, due=e.due)


def refute_timer_renewed(state: Game, e: ev.RefuteTimerRenewed) -> Game:
    return _suggestion(state, due=e.due)


def clock_started(state: Game, e: ev.ClockStarted) -> Game:
    """The clock runs until `due` from now on, and is marked seen (the table's own, or the
    edition's: `EditionState.clock_started`)."""
    table = _table(state)
    state = _with(state, clocks_seen=(*table.clocks_seen, (e.clock, e.ref)))
    if e.clock == TURN_CLOCK:
        return _with(state, due=e.due)
    if e.clock == REFUTE_CLOCK:
        return _suggestion(state, due=e.due)
    if table.edition is None:
        return state
    return _with(state, edition=table.edition.clock_started(e.clock, e.due))


def turn_logged(game: Game) -> bool:
    """Whether a game's events go on its turn's log (`Game.turn_log`): once it has a table."""
    return game.table is not None


def table_after_pause(table: Table | None, by: timedelta) -> Table | None:
    """The turn and refuter timers (and the edition's own, see EditionState.after_pause)
    move by the paused time."""
    if table is None:
        return None
    if table.edition is not None:
        table = replace(table, edition=table.edition.after_pause(by))
    due = table.due + by if table.due is not None else None
    pending = table.pending
    if pending is None or pending.due is None:
        return replace(table, due=due)
    moved = replace(pending, due=pending.due + by)
    return replace(table, due=due, suggestions=(*table.suggestions[:-1], moved))


def seat_handed_over(table: Table | None, seat: int) -> Table | None:
    """A newcomer in the seat starts with a clean record (not away)."""
    if table is None:
        return None
    seats = list(table.seats)
    seats[seat] = replace(seats[seat], missed=0, away=False)
    return replace(table, seats=tuple(seats))


TABLE_HANDLERS: Mapping[type[ev.Event], Callable[[Any, Any], Game]] = MappingProxyType(
    {
        ev.BoardSetUp: board_set_up,
        ev.TurnStarted: turn_started,
        ev.TurnSkipped: turn_skipped,
        ev.DiceRolled: dice_rolled,
        ev.TokenMoved: token_moved,
        ev.StayedToSuggest: stayed_to_suggest,
        ev.WeaponMoved: weapon_moved,
        ev.TableSuggestionMade: table_suggestion_made,
        ev.CouldNotRefute: could_not_refute,
        ev.RefuterAsked: refuter_asked,
        ev.CardShown: card_shown,
        ev.NobodyRefuted: nobody_refuted,
        ev.AccusedAtTable: accused_at_table,
        ev.TurnEnded: turn_ended,
        ev.PlayerAway: player_away,
        ev.PlayerReturned: player_returned,
        ev.TurnTimerRenewed: turn_timer_renewed,
        ev.RefuteTimerRenewed: refute_timer_renewed,
        ev.ClockStarted: clock_started,
    }
)
