"""A computer detective's own steps in the 2023 edition (its play, engine/detectives/
plays.py): the clue card a magnifying glass offers once it has moved, taken by a sleuth
and an inspector every time (a card revealed to all, or one of its left neighbour's shown
to it, is never worth less than nothing) and by a novice on a coin's toss; and, while
cards it has not seen lie face down in rooms (the two-player game), the rooms it has not
looked in yet are worth a visit besides what asking there teaches. The rest is the classic
turn (engine/detectives/detective.py), which already rolls first, stays or takes the
passage after the roll where that is worth it, and walks to a room to accuse (the
edition's accusations are made from a room)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine import commands as cmd
from engine import events as ev
from engine.computer import Level
from engine.notebook.facts import ROOMS
from engine.table.setup import board_of
from engine.table.state import MoveKind
from engine.y2023 import events as yev
from engine.y2023.rules import may_draw_clue

if TYPE_CHECKING:  # for its type only: engine.detectives loads its plays, and so this module
    from engine.detectives.detective import Detective

LURE = 1.0  # what a room not yet looked in adds to its worth (about a card's doubt, in bits)


def y2023_move(detective: Detective) -> cmd.Command | None:
    """The detective's move in a 2023-edition game."""
    table = detective.game.table
    if table is None or table.current != detective.seat:
        return None
    if may_draw_clue(table) and (
        detective.level is not Level.NOVICE or detective.rng.random() < 0.5
    ):
        return cmd.DrawClue(actor=detective.user)
    return detective.table_turn(lures(detective))


def lures(detective: Detective) -> dict[str, float]:
    """The rooms this seat's token has not entered (walked, taken the passage, or stayed)
    yet, while fewer face-down cards have been seen by it than lie in rooms: entering
    one shows it the card lying there, if any."""
    placed = detective.mind.case.size_of(ROOMS)
    if not placed:
        return {}
    seat = detective.seat
    role = detective.player.role
    here: object = None
    looked: set[str] = set()
    seen = 0
    for e in detective.events:
        if isinstance(e, ev.BoardSetUp):
            here = dict(e.tokens).get(role)
        elif isinstance(e, ev.TokenMoved) and e.suspect == role:
            here = e.to
            if e.kind in (MoveKind.WALK, MoveKind.PASSAGE) and isinstance(e.to, str):
                looked.add(e.to)
        elif isinstance(e, ev.StayedToSuggest) and e.seat == seat and isinstance(here, str):
            looked.add(here)
        elif isinstance(e, yev.PlacedCardSeen) and e.seat == seat:
            seen += 1
    if seen >= placed:
        return {}
    return {room: LURE for room in board_of(detective.game).rooms if room not in looked}
