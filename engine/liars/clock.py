"""The Liars Edition's clocks: a stage's time running out (the window, the liar, the
passers), the turn timer with the card still owed (the GM reads it), and a player leaving
while the card waits on them."""

from __future__ import annotations

from datetime import datetime

from engine import commands as cmd
from engine.deadlines import live_deadline
from engine.decision import Decision
from engine.liars import commands as lcmd
from engine.liars import events as lev
from engine.liars.cards import LIE, Action
from engine.liars.checks import absent, current_play, may_call, owes_card
from engine.liars.settle import end_timed_out, expose_first, give_if_all_chosen, gm_pass, settle
from engine.liars.state import Stage, liars_part
from engine.state import Game
from engine.table import turns as table_turns


def settle_for_leaver(decision: Decision, seat: int, now: datetime) -> None:
    """A player left: the GM answers what the card asks of them (a pass, a card face up)."""
    play = current_play(decision.state)
    if play is None:
        return
    if play.stage is Stage.PASSING:  # the reader leaving: the GM passes for the silent
        chosen = {s for s, _ in liars_part(decision.state.table).passes}
        for passer in play.passers:
            if passer not in chosen and (passer == seat or play.seat == seat):
                gm_pass(decision, passer, now)
        give_if_all_chosen(decision, now)
    elif play.stage is Stage.EXPOSE and play.seat == seat:
        expose_first(decision, now)
    if play.seat != seat:  # the reader leaving ends their turn themselves
        end_timed_out(decision, now)


def liars_deadline(state: Game | None, c: lcmd.LiarsDeadline, now: datetime) -> Decision:
    """The window closed with nobody calling; or the GM chooses for the silent. Excused
    (it ran out while the bot was down): the same stage goes on with a fresh timer."""
    game = live_deadline(state, c, now)
    if game is None:
        return Decision(state)
    play = current_play(game)
    assert play is not None
    decision = Decision(game)
    if c.excused:
        window = play.stage is Stage.WINDOW
        due = now + (game.settings.liar_window if window else game.settings.refute_time)
        decision.emit(lev.LiarsTimerRenewed(at=now, turn=play.turn, stage=play.stage, due=due))
        return decision
    if play.stage is Stage.WINDOW:
        settle(decision, now, called=False)
    elif play.stage is Stage.EXPOSE:
        expose_first(decision, now)
    else:
        chosen = {s for s, _ in liars_part(game.table).passes}
        for seat in play.passers:
            if seat not in chosen:
                gm_pass(decision, seat, now)
        give_if_all_chosen(decision, now)
    end_timed_out(decision, now)
    return decision


def gm_reading(game: Game) -> Action:
    """What the GM reads for a reader out of time: a truth as it is, a lie as the first
    action of its card."""
    table = game.table
    assert table is not None
    card = liars_part(game.table).held[table.current]
    return next(iter(Action)) if card == LIE else Action(card)


def turn_deadline(state: Game | None, c: cmd.TurnDeadline, now: datetime) -> Decision:
    """The turn timer ran out: with the card still owed the GM reads it (see the module's
    note) and the turn ends once the others have answered it; else as at any table (the
    turn is over, too many in a row and the player is away; excused: a fresh timer)."""
    game = live_deadline(state, c, now)
    if game is None or game.table is None or c.excused:
        return table_turns.turn_deadline(state, c, now)
    table = game.table
    player = game.players[table.current]
    if not owes_card(game, player):
        return table_turns.turn_deadline(state, c, now)
    decision = Decision(game)
    decision.emit(
        lev.InvestigationRead(
            at=now,
            turn=table.turn,
            seat=player.seat,
            action=gm_reading(game),
            card=liars_part(game.table).held[player.seat],
            due=now + game.settings.liar_window,
            by_gm=True,
        )
    )
    read = decision.state
    if not any(may_call(read, p) and not absent(read, p.seat) for p in read.players):
        settle(decision, now, called=False)
    end_timed_out(decision, now)
    return decision
