"""Settling the investigation card: the action once nobody calls (or a truth is called),
the GM's choices for the silent (a card face up, a card passed), the cards given left, the
reader's new card, and the turn's end when the GM read for a reader out of time."""

from __future__ import annotations

import random
from datetime import datetime

from engine.decision import Decision
from engine.liars import events as lev
from engine.liars.cards import Action
from engine.liars.checks import absent, current_play, peek_targets
from engine.liars.state import OTHERS_ANSWER, Stage, liars_part
from engine.table import turns as table_turns


def draw_next(decision: Decision, now: datetime) -> None:
    """The reader's new investigation card; an empty draw pile is the discard reshuffled."""
    game = decision.state
    play = current_play(game)
    assert play is not None
    liars = liars_part(game.table)
    reshuffled: tuple[str, ...] | None = None
    pile = liars.draw
    if not pile:
        cards = list(liars.discard)
        random.Random(f"liars:{game.seed}:reshuffle:{liars.reshuffles}").shuffle(cards)
        pile = reshuffled = tuple(cards)
    decision.emit(
        lev.InvestigationDrawn(
            at=now, turn=play.turn, seat=play.seat, card=pile[0], reshuffled=reshuffled
        )
    )


def expose_first(decision: Decision, now: datetime) -> None:
    game = decision.state
    play = current_play(game)
    assert play is not None
    card = game.players[play.seat].hand[0]
    decision.emit(lev.CardExposed(at=now, turn=play.turn, seat=play.seat, card=card, by_gm=True))
    draw_next(decision, now)


def settle(decision: Decision, now: datetime, *, called: bool) -> None:
    """Nobody called, or a truth was called: the action happens; then the new card."""
    game = decision.state
    play = current_play(game)
    assert play is not None
    if not called:
        decision.emit(lev.NoLiarCalled(at=now, turn=play.turn))
    passers: tuple[int, ...] = ()
    stage, due = Stage.DONE, None
    if play.action is Action.MOVE:
        stage = Stage.FREE_MOVE
    elif play.action is Action.PEEK and peek_targets(game):
        stage = Stage.PEEK
    elif play.action is Action.PASS:
        passers = tuple(p.seat for p in game.players if p.hand)
        if passers:
            stage, due = Stage.PASSING, now + game.settings.refute_time
    begun = lev.ActionBegun(
        at=now,
        turn=play.turn,
        seat=play.seat,
        action=play.action,
        stage=stage,
        passers=passers,
        due=due,
    )
    decision.emit(begun)
    if begun.stage is Stage.PASSING:
        for seat in begun.passers:
            if absent(decision.state, seat):
                gm_pass(decision, seat, now)
        give_if_all_chosen(decision, now)
    draw_next(decision, now)


def gm_pass(decision: Decision, seat: int, now: datetime) -> None:
    game = decision.state
    play = current_play(game)
    assert play is not None
    card = game.players[seat].hand[0]
    decision.emit(lev.PassChosen(at=now, turn=play.turn, seat=seat, card=card, by_gm=True))


def give_if_all_chosen(decision: Decision, now: datetime) -> None:
    game = decision.state
    play = current_play(game)
    liars = liars_part(game.table)
    assert play is not None
    if len(liars.passes) < len(play.passers):
        return
    count = len(game.players)
    moves = tuple((seat, (seat + 1) % count, card) for seat, card in liars.passes)
    decision.emit(lev.CardsPassed(at=now, turn=play.turn, moves=moves))


def end_timed_out(decision: Decision, now: datetime) -> None:
    """A card the GM read for a reader out of time: once the others' part is over, the
    turn ends as timed out (too many in a row and the player is away)."""
    game = decision.state
    play = current_play(game)
    if not game.running or play is None or not play.by_gm or play.stage in OTHERS_ANSWER:
        return
    table_turns.time_out(decision, play.turn, play.seat, now)
