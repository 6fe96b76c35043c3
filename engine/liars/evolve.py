"""Applying the Liars Edition's events. No rule is checked here."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from types import MappingProxyType
from typing import Any

from engine.events import Event
from engine.frozen import replace
from engine.liars import events as lev
from engine.liars.state import Liars, Play, Stage, liars_of
from engine.state import Game
from engine.table.state import Step


def _liars(state: Game) -> Liars:
    liars = liars_of(state.table)
    assert liars is not None
    return liars


def _with(state: Game, **changes: Any) -> Game:
    assert state.table is not None
    liars = replace(_liars(state), **changes)
    return replace(state, table=replace(state.table, edition=liars))


def _play(state: Game, **changes: Any) -> Game:
    play = _liars(state).play
    assert play is not None
    return _with(state, play=replace(play, **changes))


def _held(state: Game, seat: int, card: str) -> tuple[str, ...]:
    held = list(_liars(state).held)
    held[seat] = card
    return tuple(held)


def _hand(state: Game, seat: int, hand: tuple[str, ...]) -> Game:
    players = list(state.players)
    players[seat] = replace(players[seat], hand=hand)
    return replace(state, players=tuple(players))


def _in_order(state: Game, cards: list[str]) -> tuple[str, ...]:
    order = {card: i for i, card in enumerate(state.pack.all_cards)}
    return tuple(sorted(cards, key=order.__getitem__))


def _clock_back(state: Game, at: datetime, read_at: datetime) -> Game:
    """The turn's clock stood still while the others answered the card."""
    table = state.table
    assert table is not None
    due = table.due + (at - read_at) if table.due is not None else None
    return replace(state, table=replace(table, due=due))


def investigation_dealt(state: Game, e: lev.InvestigationDealt) -> Game:
    assert state.table is not None
    liars = Liars(draw=e.draw, held=e.held)
    return replace(state, table=replace(state.table, edition=liars))


def investigation_read(state: Game, e: lev.InvestigationRead) -> Game:
    liars = _liars(state)
    play = Play(
        turn=e.turn,
        seat=e.seat,
        card=e.card,
        action=e.action,
        stage=Stage.WINDOW,
        read_at=e.at,
        due=e.due,
        by_gm=e.by_gm,
    )
    state = _with(state, held=_held(state, e.seat, ""), discard=(*liars.discard, e.card), play=play)
    assert state.table is not None  # no ordinary suggestion after the card is played
    return replace(state, table=replace(state.table, step=Step.SUGGESTED))


def liar_called(state: Game, e: lev.LiarCalled) -> Game:
    stage = Stage.EXPOSE if e.lie else Stage.WINDOW
    return _play(state, challenger=e.seat, stage=stage, due=e.due)


def truth_shown(state: Game, e: lev.TruthShown) -> Game:
    return state


def card_exposed(state: Game, e: lev.CardExposed) -> Game:
    hand = tuple(c for c in state.players[e.seat].hand if c != e.card)
    state = _hand(state, e.seat, hand)
    state = _with(state, face_up=(*_liars(state).face_up, e.card))
    return _resumed(_play(state, stage=Stage.DONE, due=None), e.at)


def _resumed(state: Game, at: datetime) -> Game:
    """The others' part is over (the card settled, or the passes given)."""
    play = _liars(state).play
    assert play is not None
    return _clock_back(state, at, play.read_at)


def no_liar_called(state: Game, e: lev.NoLiarCalled) -> Game:
    return _play(state, due=None)


def action_begun(state: Game, e: lev.ActionBegun) -> Game:
    state = _play(state, stage=e.stage, passers=e.passers, due=e.due)
    return state if e.stage is Stage.PASSING else _resumed(state, e.at)


def investigation_drawn(state: Game, e: lev.InvestigationDrawn) -> Game:
    liars = _liars(state)
    if e.reshuffled is not None:
        liars = replace(liars, draw=e.reshuffled, discard=(), reshuffles=liars.reshuffles + 1)
        state = _with(state, draw=liars.draw, discard=(), reshuffles=liars.reshuffles)
    return _with(state, draw=liars.draw[1:], held=_held(state, e.seat, e.card))


def pass_chosen(state: Game, e: lev.PassChosen) -> Game:
    hand = tuple(c for c in state.players[e.seat].hand if c != e.card)
    state = _hand(state, e.seat, hand)
    return _with(state, passes=(*_liars(state).passes, (e.seat, e.card)))


def cards_passed(state: Game, e: lev.CardsPassed) -> Game:
    for _, to, card in e.moves:
        state = _hand(state, to, _in_order(state, [*state.players[to].hand, card]))
    state = _with(state, passes=())
    return _resumed(_play(state, stage=Stage.DONE, due=None), e.at)


def peeked(state: Game, e: lev.Peeked) -> Game:
    return _play(state, stage=Stage.DONE)


def moved_anywhere(state: Game, e: lev.MovedAnywhere) -> Game:
    return _play(state, stage=Stage.DONE)


def liars_timer_renewed(state: Game, e: lev.LiarsTimerRenewed) -> Game:
    return _play(state, due=e.due)


LIARS_FOLDS: Mapping[type[Event], Callable[[Any, Any], Game]] = MappingProxyType(
    {
        lev.InvestigationDealt: investigation_dealt,
        lev.InvestigationRead: investigation_read,
        lev.LiarCalled: liar_called,
        lev.TruthShown: truth_shown,
        lev.CardExposed: card_exposed,
        lev.NoLiarCalled: no_liar_called,
        lev.ActionBegun: action_begun,
        lev.InvestigationDrawn: investigation_drawn,
        lev.PassChosen: pass_chosen,
        lev.CardsPassed: cards_passed,
        lev.Peeked: peeked,
        lev.MovedAnywhere: moved_anywhere,
        lev.LiarsTimerRenewed: liars_timer_renewed,
    }
)
