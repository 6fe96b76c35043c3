"""The 2023 edition's rules where they differ from the classic format; the table engine
calls these hooks, which do nothing in a classic game (no `edition` on the table).

- A magnifying glass rolled (one or two) draws one clue card, read and done at once.
- Entering a room that holds a face-down card, the player looks at it, privately.
- A player who starts the turn in a room may stay there (and suggest) instead of moving.
- An accusation is made from a room (any room).
"""

from __future__ import annotations

import random
from datetime import datetime

from engine import events as ev
from engine.decision import Decision
from engine.errors import AccuseOutsideRoom
from engine.ids import Seat
from engine.state import Game
from engine.table.state import Table
from engine.y2023.cards import CLUES, GLASS, ClueKind


def in_edition(table: Table | None) -> bool:
    return table is not None and table.y2023 is not None


def after_roll(decision: Decision, seat: Seat, now: datetime) -> None:
    """One clue card for a glass (two glasses still draw one)."""
    table = decision.state.table
    if table is None or table.y2023 is None or GLASS not in table.dice:
        return
    clue = CLUES[table.y2023.clues[0]]
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
    if table is None or table.y2023 is None:
        return
    room = table.place_of(game.players[seat].role)
    if not isinstance(room, str):
        return
    card = table.y2023.card_in(room)
    if card is None or table.y2023.has_seen(seat, card):
        return
    decision.emit(ev.PlacedCardSeen(at=now, turn=table.turn, seat=seat, room=room, card=card))


def may_stay(game: Game, seat: Seat) -> bool:
    """Started the turn in a room (the caller checks the turn has not begun)."""
    table = game.table
    assert table is not None
    return isinstance(table.place_of(game.players[seat].role), str)


def require_room_to_accuse(game: Game, seat: Seat) -> None:
    table = game.table
    if table is None or table.y2023 is None:
        return
    if not isinstance(table.place_of(game.players[seat].role), str):
        raise AccuseOutsideRoom()


def may_accuse_here(game: Game, seat: Seat) -> bool:
    try:
        require_room_to_accuse(game, seat)
    except AccuseOutsideRoom:
        return False
    return True
