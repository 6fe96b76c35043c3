"""The 2023 edition's rules where they differ from the classic format, as the edition's
hooks (engine/y2023/edition.py):

- Every turn starts with the two dice ("Vi komencos vian vicon ĵetante la du ĵetkubojn").
- A magnifying glass rolled (one or two) lets the player draw one clue card ("vi povas"):
  their choice, once, after the move ("La unua ago ... estas movi vian karakteron"; walking,
  staying or the passage) and before the suggestion; it is read and done at once.
- A player whose turn began in a room may, after the roll, stay there (and suggest) or take
  its secret passage instead of walking.
- Entering a room that holds a face-down card, the player looks at it, privately.
- An accusation comes after the move ("La unua ago ... estas movi"; staying or the
  passage stand for it) and is made from a room (any room).
"""

from __future__ import annotations

import random
from datetime import datetime

from engine.decision import Decision
from engine.ids import Seat
from engine.state import Game
from engine.table.errors import NoClueCard
from engine.table.state import Step, Table
from engine.y2023 import events as ev
from engine.y2023.cards import CLUES, GLASS, ClueKind
from engine.y2023.errors import AccuseAfterMoving, AccuseOutsideRoom
from engine.y2023.state import y2023_of


def may_draw_clue(table: Table) -> bool:
    """A glass rolled this turn, no clue card drawn yet, the token moved (or stayed) and
    no suggestion made yet (two glasses still draw one)."""
    edition = y2023_of(table)
    return (
        edition is not None
        and table.step is Step.MOVED
        and GLASS in table.dice
        and edition.clue_turn != table.turn
    )


def draw_clue(decision: Decision, seat: Seat, now: datetime) -> None:
    """The top clue card, read and done at once: a card revealed to all, or a random card
    of the left neighbour's shown to the player."""
    table = decision.state.table
    edition = y2023_of(table)
    if table is None or edition is None or not may_draw_clue(table):
        raise NoClueCard()
    clue = CLUES[edition.clues[0]]
    decision.emit(ev.ClueCardDrawn(at=now, turn=table.turn, seat=seat, clue=clue.id))
    game = decision.state
    if clue.kind is ClueKind.REVEAL:
        assert clue.card is not None
        holder = next((p.seat for p in game.players if clue.card in p.hand), None)
        decision.emit(ev.ClueRevealed(at=now, clue=clue.id, card=clue.card, seat=holder))
    else:
        left = (seat + 1) % len(game.players)
        hand = game.players[left].hand
        rng = random.Random(f"clue:{game.seed}:{table.turn}")
        card = rng.choice(hand) if hand else None
        decision.emit(ev.ClueCardShown(at=now, clue=clue.id, seat=left, to=seat, card=card))


def after_entering(decision: Decision, seat: Seat, now: datetime) -> None:
    """The player looks at the card face down in the room they entered (or stayed in)."""
    game = decision.state
    table = game.table
    edition = y2023_of(table)
    if table is None or edition is None:
        return
    room = table.place_of(game.players[seat].role)
    if not isinstance(room, str):
        return
    card = edition.card_in(room)
    if card is None or edition.has_seen(seat, card):
        return
    decision.emit(ev.PlacedCardSeen(at=now, turn=table.turn, seat=seat, room=room, card=card))


def may_stay(game: Game, seat: Seat) -> bool:
    """Rolled, and the turn began in a room (the token has not moved yet)."""
    table = game.table
    assert table is not None
    return table.step is Step.MOVE and isinstance(table.place_of(game.players[seat].role), str)


def require_moved_into_room(game: Game, seat: Seat) -> None:
    """An accusation comes after the move (the turn begins with the dice, and moving is
    its first action; staying and the passage stand for it) and is made from a room."""
    table = game.table
    if table is None:
        return
    if table.step in (Step.ROLL, Step.MOVE):
        raise AccuseAfterMoving()
    if not isinstance(table.place_of(game.players[seat].role), str):
        raise AccuseOutsideRoom()
