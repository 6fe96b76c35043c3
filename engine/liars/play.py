"""The investigation card: read it (a truth as it is, a lie as any of its three actions),
the Liar! window, a caught liar's card face up or a wrong caller's random card to the
reader, the action (move anywhere and suggest again, everyone passes a card left, peek at
two random cards), and the new card drawn.

The card is a step of every turn (skipped only with no evidence cards in hand). A turn
timer that runs out with the card unplayed has the GM read it: a truth as it is, a lie as
the first action of its card (move anywhere); the others may call Liar! as ever, each
stage is settled as its own deadline settles it, and the turn ends (timed out) once the
others' part is over. The reader's own part (the free move, the peek) goes with their
time."""

from __future__ import annotations

import random
from datetime import datetime

from engine import commands as cmd
from engine import events as ev
from engine.deadlines import live_deadline
from engine.decision import Decision
from engine.errors import (
    CardNotHeld,
    NoCardsToPeek,
    NoInvestigationCard,
    NotThatAction,
    NotYourCall,
    NotYourChoice,
    OutOfReach,
)
from engine.liars import commands as lcmd
from engine.liars import events as lev
from engine.liars.cards import LIE, RING, Action
from engine.liars.state import OTHERS_ANSWER, Liars, Play, Stage
from engine.rules import require_active, require_player, require_running
from engine.state import Game, Player
from engine.table import turns as table_turns
from engine.table.checks import acting, require_turn
from engine.table.state import MoveKind, Step


def _rng(game: Game, turn: int, what: str) -> random.Random:
    """Random draws of the edition, replayable from the game's seed."""
    return random.Random(f"liars:{game.seed}:{turn}:{what}")


def _liars(game: Game) -> Liars:
    assert game.table is not None and game.table.liars is not None
    return game.table.liars


def current_play(game: Game) -> Play | None:
    """This turn's investigation card, once read."""
    table = game.table
    if table is None or table.liars is None:
        return None
    return table.liars.play_in(table.turn)


def owes_card(game: Game, player: Player) -> bool:
    """Their turn, the card not played yet, holding it and at least one evidence card:
    the card must be played before the turn ends."""
    table = game.table
    assert table is not None
    return (
        table.current == player.seat
        and current_play(game) is None
        and _liars(game).held[player.seat] != ""
        and bool(player.hand)
    )


def skips_card(game: Game, player: Player) -> bool:
    """Their turn, the card not played, and no evidence card in hand: the step is skipped
    (the investigation card is kept)."""
    table = game.table
    assert table is not None
    return table.current == player.seat and current_play(game) is None and not player.hand


def may_play(game: Game, player: Player) -> bool:
    """After moving, once a turn, holding the card and at least one evidence card."""
    table = game.table
    assert table is not None
    return table.step in (Step.MOVED, Step.SUGGESTED) and owes_card(game, player)


def may_call(game: Game, player: Player) -> bool:
    """Another player still in the game, while the window is open and nobody has called."""
    play = current_play(game)
    return (
        play is not None
        and play.stage is Stage.WINDOW
        and play.challenger is None
        and player.seat != play.seat
        and game.can_accuse(player)
    )


def _absent(game: Game, seat: int) -> bool:
    table = game.table
    assert table is not None
    return not game.players[seat].active or table.seats[seat].away


def play_investigation(state: Game | None, c: lcmd.PlayInvestigation, now: datetime) -> Decision:
    """Read the card aloud; the Liar! window opens (closes at once if nobody may call)."""
    game, table, player = require_turn(state, c.actor)
    if not may_play(game, player):
        raise NoInvestigationCard()
    try:
        action = Action(c.action)
    except ValueError:
        raise NotThatAction() from None
    card = _liars(game).held[player.seat]
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
    if not any(may_call(read, p) and not _absent(read, p.seat) for p in read.players):
        _settle(decision, now, called=False)
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
        if _absent(game, play.seat):
            _expose_first(decision, now)
        _end_timed_out(decision, now)
        return decision
    hand = player.hand
    shown = _rng(game, play.turn, "truth").choice(hand) if hand else None
    decision.emit(
        lev.TruthShown(at=now, turn=play.turn, seat=player.seat, reader=play.seat, card=shown)
    )
    _settle(decision, now, called=True)
    _end_timed_out(decision, now)
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
    _draw(decision, now)
    _end_timed_out(decision, now)
    return decision


def _expose_first(decision: Decision, now: datetime) -> None:
    game = decision.state
    play = current_play(game)
    assert play is not None
    card = game.players[play.seat].hand[0]
    decision.emit(lev.CardExposed(at=now, turn=play.turn, seat=play.seat, card=card, by_gm=True))
    _draw(decision, now)


def _settle(decision: Decision, now: datetime, *, called: bool) -> None:
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
            if _absent(decision.state, seat):
                _gm_pass(decision, seat, now)
        _give_if_all_chosen(decision, now)
    _draw(decision, now)


def _draw(decision: Decision, now: datetime) -> None:
    """The reader's new investigation card; an empty draw pile is the discard reshuffled."""
    game = decision.state
    play = current_play(game)
    assert play is not None
    liars = _liars(game)
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


def peek_targets(game: Game) -> tuple[int, ...]:
    """The players whose cards the reader may look at: the others holding evidence."""
    play = current_play(game)
    return tuple(p.seat for p in game.players if p.hand and (play is None or p.seat != play.seat))


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
    cards = tuple(_rng(game, play.turn, "peek").sample(hand, min(2, len(hand))))
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


def pass_choices(game: Game, user: int) -> tuple[str, ...]:
    """The cards `user` may pass now (their hand), or NotYourChoice."""
    player = require_player(game, user)
    play = current_play(game)
    chosen = {seat for seat, _ in _liars(game).passes}
    if (
        play is None
        or play.stage is not Stage.PASSING
        or player.seat not in play.passers
        or player.seat in chosen
    ):
        raise NotYourChoice()
    return player.hand


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
    _give_if_all_chosen(decision, now)
    _end_timed_out(decision, now)
    return decision


def _gm_pass(decision: Decision, seat: int, now: datetime) -> None:
    game = decision.state
    play = current_play(game)
    assert play is not None
    card = game.players[seat].hand[0]
    decision.emit(lev.PassChosen(at=now, turn=play.turn, seat=seat, card=card, by_gm=True))


def _give_if_all_chosen(decision: Decision, now: datetime) -> None:
    game = decision.state
    play = current_play(game)
    liars = _liars(game)
    assert play is not None
    if len(liars.passes) < len(play.passers):
        return
    count = len(game.players)
    moves = tuple((seat, (seat + 1) % count, card) for seat, card in liars.passes)
    decision.emit(lev.CardsPassed(at=now, turn=play.turn, moves=moves))


def settle_for_leaver(decision: Decision, seat: int, now: datetime) -> None:
    """A player left: the GM answers what the card asks of them (a pass, a card face up)."""
    play = current_play(decision.state)
    if play is None:
        return
    if play.stage is Stage.PASSING:  # the reader leaving: the GM passes for the silent
        chosen = {s for s, _ in _liars(decision.state).passes}
        for passer in play.passers:
            if passer not in chosen and (passer == seat or play.seat == seat):
                _gm_pass(decision, passer, now)
        _give_if_all_chosen(decision, now)
    elif play.stage is Stage.EXPOSE and play.seat == seat:
        _expose_first(decision, now)
    if play.seat != seat:  # the reader leaving ends their turn themselves
        _end_timed_out(decision, now)


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
        _settle(decision, now, called=False)
    elif play.stage is Stage.EXPOSE:
        _expose_first(decision, now)
    else:
        chosen = {s for s, _ in _liars(game).passes}
        for seat in play.passers:
            if seat not in chosen:
                _gm_pass(decision, seat, now)
        _give_if_all_chosen(decision, now)
    _end_timed_out(decision, now)
    return decision


def gm_reading(game: Game) -> Action:
    """What the GM reads for a reader out of time: a truth as it is, a lie as the first
    action of its card."""
    table = game.table
    assert table is not None
    card = _liars(game).held[table.current]
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
            card=_liars(game).held[player.seat],
            due=now + game.settings.liar_window,
            by_gm=True,
        )
    )
    read = decision.state
    if not any(may_call(read, p) and not _absent(read, p.seat) for p in read.players):
        _settle(decision, now, called=False)
    _end_timed_out(decision, now)
    return decision


def _end_timed_out(decision: Decision, now: datetime) -> None:
    """A card the GM read for a reader out of time: once the others' part is over, the
    turn ends as timed out (too many in a row and the player is away)."""
    game = decision.state
    play = current_play(game)
    if not game.running or play is None or not play.by_gm or play.stage in OTHERS_ANSWER:
        return
    table_turns.time_out(decision, play.turn, play.seat, now)
