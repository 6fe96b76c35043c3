"""A Liars Edition turn: accuse first (before rolling); roll, then choose: move by the roll
around the ring, or take the secret passage of the room one is in, or stay; suggest; play
the investigation card (unless the hand holds no evidence card); end the turn. Setup puts
the tokens in rooms and deals the investigation cards."""

from __future__ import annotations

import random
from datetime import datetime

from engine import commands as cmd
from engine import events as ev
from engine.decision import Decision
from engine.liars import events as lev
from engine.liars.cards import BOARD_KEY, LIARS_PACK, PASSAGES, START_ROOMS, rooms_within
from engine.liars.cards import investigation_deck as build_deck
from engine.liars.checks import current_play, may_play
from engine.liars.errors import AccuseAtStart, InvestigationFirst, InvestigationPending
from engine.liars.state import OTHERS_ANSWER
from engine.state import Game
from engine.table import accuse as table_accuse
from engine.table.checks import acting, require_turn
from engine.table.errors import (
    AlreadyMoved,
    MustMove,
    MustRollFirst,
    NoSecretPassage,
    OutOfReach,
    RefutationPending,
)
from engine.table.setup import first_turn
from engine.table.state import MoveKind, Step, Table, TurnEnd
from engine.table.turns import start_next


def set_up_liars(decision: Decision, rng: random.Random, now: datetime) -> None:
    """Every token in its room, the weapons in rooms at random, one investigation card each."""
    game = decision.state
    rooms = rng.sample(LIARS_PACK.places, len(LIARS_PACK.weapons))
    decision.emit(
        ev.BoardSetUp(
            at=now,
            board=BOARD_KEY,
            tokens=tuple((s, START_ROOMS[s]) for s in LIARS_PACK.suspects),
            weapons=tuple(zip(LIARS_PACK.weapons, rooms, strict=True)),
        )
    )
    s = game.settings
    deck = list(build_deck(s.truth_move_cards, s.truth_pass_cards, s.truth_peek_cards, s.lie_cards))
    rng.shuffle(deck)
    count = len(game.players)
    decision.emit(
        lev.InvestigationDealt(at=now, held=tuple(deck[:count]), draw=tuple(deck[count:]))
    )
    first_turn(decision, now)  # Miss Scarlett's player, or the next suspect in order


def _after_rolling(table: Table) -> None:
    """The passage and staying are chosen after the roll, instead of moving by it."""
    if table.step is Step.ROLL:
        raise MustRollFirst()
    if table.step is not Step.MOVE:
        raise AlreadyMoved()


def move(state: Game | None, c: cmd.Move, now: datetime) -> Decision:
    """Up to the roll's rooms around the ring, either way; each room is one space."""
    game, table, player = require_turn(state, c.actor)
    if table.step is Step.ROLL:
        raise MustRollFirst()
    if table.step is not Step.MOVE:
        raise AlreadyMoved()
    here = table.place_of(player.role)
    assert isinstance(here, str)
    if not isinstance(c.to, str) or c.to not in rooms_within(here, sum(table.dice)):
        raise OutOfReach()
    decision = Decision(game)
    acting(decision, player.seat, now)
    decision.emit(
        ev.TokenMoved(at=now, turn=table.turn, suspect=player.role, to=c.to, kind=MoveKind.WALK)
    )
    return decision


def take_passage(state: Game | None, c: cmd.TakePassage, now: datetime) -> Decision:
    """After rolling, instead of moving by it: the passage of the room one is in."""
    game, table, player = require_turn(state, c.actor)
    _after_rolling(table)
    here = table.place_of(player.role)
    if not isinstance(here, str) or here not in PASSAGES:
        raise NoSecretPassage()
    decision = Decision(game)
    acting(decision, player.seat, now)
    kind = MoveKind.PASSAGE
    to = PASSAGES[here]
    decision.emit(ev.TokenMoved(at=now, turn=table.turn, suspect=player.role, to=to, kind=kind))
    return decision


def stay(state: Game | None, c: cmd.StayToSuggest, now: datetime) -> Decision:
    """After rolling, instead of moving by it: stay in the room (always allowed in this
    edition, as the rulebook's Professor Plum may stay in the Study)."""
    game, table, player = require_turn(state, c.actor)
    _after_rolling(table)
    decision = Decision(game)
    acting(decision, player.seat, now)
    decision.emit(ev.StayedToSuggest(at=now, turn=table.turn, seat=player.seat))
    return decision


def accuse(state: Game | None, c: cmd.Accuse, now: datetime) -> Decision:
    """At the start of one's turn, before rolling; then as at the classic table."""
    _, table, _ = require_turn(state, c.actor)
    if table.step is not Step.ROLL:
        raise AccuseAtStart()
    return table_accuse.accuse(state, c, now)


def others_answering(game: Game) -> bool:
    """The investigation card waits for the others (Liar!, a card face up, passes)."""
    play = current_play(game)
    return play is not None and play.stage in OTHERS_ANSWER


def may_end_turn(game: Game) -> bool:
    """After moving (or staying), the investigation card played (or skipped: no evidence
    in hand), nothing owed to or by the table."""
    table = game.table
    assert table is not None
    if table.step not in (Step.MOVED, Step.SUGGESTED) or others_answering(game):
        return False
    return not may_play(game, game.players[table.current])


def end_turn(state: Game | None, c: cmd.EndTurn, now: datetime) -> Decision:
    """After moving (or staying) and playing the investigation card; not while a card is
    owed to or by the table."""
    game, table, player = require_turn(state, c.actor)
    if table.step is Step.REFUTING:
        raise RefutationPending()
    if table.step in (Step.ROLL, Step.MOVE):
        raise MustMove()
    if others_answering(game):
        raise InvestigationPending()
    if may_play(game, player):
        raise InvestigationFirst()
    decision = Decision(game)
    acting(decision, player.seat, now)
    decision.emit(ev.TurnEnded(at=now, turn=table.turn, seat=player.seat, reason=TurnEnd.ENDED))
    start_next(decision, now)
    return decision
