"""The investigation card's commands: read it (a truth as it is, a lie as any of its three
actions), Liar! (a caught liar's card face up, or a wrong caller's random card to the
reader), a card put face up, the peek at two random cards, the free move, a card passed
left. What the card then settles (the action, the new card drawn) is in settle.py; when
its time runs out, in clock.py.

The card is a step of every turn (skipped only with no evidence cards in hand). A turn
timer that runs out with the card unplayed has the GM read it: a truth as it is, a lie as
the first action of its card (move anywhere); the others may call Liar! as ever, each
stage is settled as its own deadline settles it, and the turn ends (timed out) once the
others' part is over. The reader's own part (the free move, the peek) goes with their
time."""

from __future__ import annotations

from datetime import datetime

from engine import events as ev
from engine.decision import Decision
from engine.errors import CardNotHeld
from engine.liars import commands as lcmd
from engine.liars import events as lev
from engine.liars.cards import LIE, RING, Action
from engine.liars.checks import (
    absent,
    current_play,
    liars_rng,
    may_call,
    may_play,
    pass_choices,
    peek_targets,
)
from engine.liars.errors import (
    NoCardsToPeek,
    NoInvestigationCard,
    NotThatAction,
    NotYourCall,
    NotYourChoice,
)
from engine.liars.settle import draw_next, end_timed_out, expose_first, give_if_all_chosen, settle
from engine.liars.state import Stage, liars_part
from engine.rules import require_active, require_player, require_running
from engine.state import Game
from engine.table.checks import acting, require_turn
from engine.table.errors import OutOfReach
from engine.table.state import MoveKind


def play_investigation(state: Game | None, c: lcmd.PlayInvestigation, now: datetime) -> Decision:
    """Read the card aloud; the Liar! window opens (closes at once if nobody may call)."""
    game, table, player = require_turn(state, c.actor)
    if not may_play(game, player):
        raise NoInvestigationCard()
    try:
        action = Action(c.action)
    except ValueError:
        raise NotThatAction() from None
    card = liars_part(game.table).held[player.seat]
    if card != LIE and card != action.value:
        raise NotThatAction()
    decision = Decision(game)
    acting(decision, player.seat, now)
    due = now + game.settings.liar_window
    decision.emit(
        lev.InvestigationRead(
            at=now, turn=table.turn, seat=player.seat, action=action, card=card, due=due
        )
    )
    read = decision.state
    if not any(may_call(read, p) and not absent(read, p.seat) for p in read.players):
        settle(decision, now, called=False)
    return decision


def call_liar(state: Game | None, c: lcmd.CallLiar, now: datetime) -> Decision:
    """Liar!: a lie is caught (a card face up, no action); a truth costs the caller a random
    card shown to the reader, and the action happens."""
    game = require_running(state)
    player = require_active(require_player(game, c.actor))
    if not may_call(game, player):
        raise NotYourCall()
    play = current_play(game)
    assert play is not None
    decision = Decision(game)
    acting(decision, player.seat, now)
    lie = play.card == LIE
    due = now + game.settings.refute_time if lie else None
    decision.emit(
        lev.LiarCalled(at=now, turn=play.turn, seat=player.seat, reader=play.seat, lie=lie, due=due)
    )
    if lie:
        if absent(game, play.seat):
            expose_first(decision, now)
        end_timed_out(decision, now)
        return decision
    hand = player.hand
    shown = liars_rng(game, play.turn, "truth").choice(hand) if hand else None
    decision.emit(
        lev.TruthShown(at=now, turn=play.turn, seat=player.seat, reader=play.seat, card=shown)
    )
    settle(decision, now, called=True)
    end_timed_out(decision, now)
    return decision


def expose_card(state: Game | None, c: lcmd.ExposeCard, now: datetime) -> Decision:
    """The caught liar chooses the evidence card to put face up."""
    game = require_running(state)
    player = require_player(game, c.actor)
    play = current_play(game)
    if play is None or play.stage is not Stage.EXPOSE or play.seat != player.seat:
        raise NotYourChoice()
    if c.card not in player.hand:
        raise CardNotHeld(card=c.card)
    decision = Decision(game)
    acting(decision, player.seat, now)
    decision.emit(lev.CardExposed(at=now, turn=play.turn, seat=player.seat, card=c.card))
    draw_next(decision, now)
    end_timed_out(decision, now)
    return decision


def peek_at(state: Game | None, c: lcmd.PeekAt, now: datetime) -> Decision:
    """Two random evidence cards of the chosen player, to the reader only."""
    game = require_running(state)
    player = require_player(game, c.actor)
    play = current_play(game)
    if play is None or play.stage is not Stage.PEEK or play.seat != player.seat:
        raise NotYourChoice()
    if c.seat not in peek_targets(game):
        raise NoCardsToPeek()
    hand = game.players[c.seat].hand
    cards = tuple(liars_rng(game, play.turn, "peek").sample(hand, min(2, len(hand))))
    decision = Decision(game)
    acting(decision, player.seat, now)
    decision.emit(lev.Peeked(at=now, turn=play.turn, seat=player.seat, target=c.seat, cards=cards))
    return decision


def move_anywhere(state: Game | None, c: lcmd.MoveAnywhere, now: datetime) -> Decision:
    """To any room (or stay), then another suggestion may follow."""
    game, table, player = require_turn(state, c.actor)
    play = current_play(game)
    if play is None or play.stage is not Stage.FREE_MOVE:
        raise NotYourChoice()
    if c.room not in RING:
        raise OutOfReach()
    decision = Decision(game)
    acting(decision, player.seat, now)
    decision.emit(lev.MovedAnywhere(at=now, turn=table.turn, seat=player.seat, room=c.room))
    if table.place_of(player.role) == c.room:
        decision.emit(ev.StayedToSuggest(at=now, turn=table.turn, seat=player.seat))
    else:
        decision.emit(
            ev.TokenMoved(
                at=now, turn=table.turn, suspect=player.role, to=c.room, kind=MoveKind.WALK
            )
        )
    return decision


def pass_card(state: Game | None, c: lcmd.PassCard, now: datetime) -> Decision:
    """One card of this player's choice on its way left; all given once all are chosen."""
    game = require_running(state)
    player = require_player(game, c.actor)
    if c.card not in pass_choices(game, c.actor):
        raise CardNotHeld(card=c.card)
    play = current_play(game)
    assert play is not None
    decision = Decision(game)
    acting(decision, player.seat, now)
    decision.emit(lev.PassChosen(at=now, turn=play.turn, seat=player.seat, card=c.card))
    give_if_all_chosen(decision, now)
    end_timed_out(decision, now)
    return decision
