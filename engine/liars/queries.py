"""What the bot asks of a Liars Edition game: the current player's options, who is asked
for a card, and each seat's private view."""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import CardId
from engine.liars.cards import LIE, PASSAGES, RING, Action, rooms_within
from engine.liars.checks import (
    current_play,
    may_call,
    may_play,
    pass_choices,
    peek_targets,
    skips_card,
)
from engine.liars.state import Play, Stage, liars_of, liars_part
from engine.liars.turns import may_end_turn
from engine.state import Game
from engine.table.checks import require_table
from engine.table.errors import NotYourTurn
from engine.table.state import Step

__all__ = [
    "LiarsOptions",
    "PrivateView",
    "callers",
    "current_play",
    "liars_options",
    "pass_choices",
    "private_view",
    "waiting_passers",
]


@dataclass(frozen=True)
class LiarsOptions:
    """The current player's legal actions; the bot offers exactly these."""

    seat: int
    step: Step
    stage: Stage | None  # this turn's investigation card, once read
    can_roll: bool  # the turn's start (accuse first if one likes)
    passage: str | None  # after rolling: the room's secret passage, if it has one
    can_stay: bool  # after rolling: stay in the room
    rooms: tuple[str, ...]  # within this roll, in ring order
    suggest_in: str | None
    reads: tuple[Action, ...]  # the actions the held card may be read as (none: cannot play)
    move_anywhere: tuple[str, ...]  # the free move's rooms
    peek_at: tuple[int, ...]  # the seats the reader may look at
    expose: tuple[CardId, ...]  # a caught liar's cards to put face up
    can_end_turn: bool  # not while the investigation card is owed
    can_accuse: bool
    skips_card: bool  # no evidence card in hand: the investigation card is skipped (kept)


def liars_options(game: Game, user: int) -> LiarsOptions:
    """What `user` may do now; a RuleError if it is not their turn."""
    _, table = require_table(game)
    player = game.player_of(user)
    if player is None or player.seat != table.current:
        raise NotYourTurn()
    liars = liars_part(game.table)
    here = table.place_of(player.role)
    assert isinstance(here, str)
    first = table.step is Step.ROLL
    rolled = table.step is Step.MOVE
    play = current_play(game)
    reads: tuple[Action, ...] = ()
    if may_play(game, player):
        card = liars.held[player.seat]
        reads = tuple(Action) if card == LIE else (Action(card),)
    stage = play.stage if play is not None else None
    return LiarsOptions(
        seat=player.seat,
        step=table.step,
        stage=stage,
        can_roll=first,
        passage=PASSAGES.get(here) if rolled else None,
        can_stay=rolled,
        rooms=rooms_within(here, sum(table.dice)) if rolled else (),
        suggest_in=here if table.step is Step.MOVED and table.entered else None,
        reads=reads,
        move_anywhere=RING if stage is Stage.FREE_MOVE else (),
        peek_at=peek_targets(game) if stage is Stage.PEEK else (),
        expose=player.hand if stage is Stage.EXPOSE else (),
        can_end_turn=may_end_turn(game),
        can_accuse=first,
        skips_card=skips_card(game, player),
    )


def callers(game: Game) -> tuple[int, ...]:
    """The seats that may press Liar! now."""
    return tuple(p.seat for p in game.players if may_call(game, p))


def waiting_passers(game: Game) -> tuple[int, ...]:
    """The seats still to choose the card they pass left."""
    play = current_play(game)
    liars = liars_of(game.table)
    if play is None or play.stage is not Stage.PASSING or liars is None:
        return ()
    chosen = {seat for seat, _ in liars.passes}
    return tuple(s for s in play.passers if s not in chosen)


@dataclass(frozen=True)
class PrivateView:
    """What one seat sees privately: its hand, its investigation card, the face-up cards,
    and the card it has chosen to pass (on its way left)."""

    hand: tuple[CardId, ...]
    investigation: str  # an Action's value, "lie", or "" while drawing
    face_up: tuple[CardId, ...]
    passing: CardId | None


def private_view(game: Game, seat: int) -> PrivateView:
    liars = liars_part(game.table)
    passing = next((card for s, card in liars.passes if s == seat), None)
    return PrivateView(
        hand=game.players[seat].hand,
        investigation=liars.held[seat],
        face_up=liars.face_up,
        passing=passing,
    )


def read_play(game: Game) -> Play | None:
    """This turn's read card (the bot never shows `card` unless Liar! was called)."""
    return current_play(game)
