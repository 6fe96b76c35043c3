"""Checks the table's commands share: a table game, the player whose turn it is,
and where their token may go."""

from __future__ import annotations

from datetime import datetime

from engine import events as ev
from engine.board.model import Place
from engine.board.movement import Reach, reachable
from engine.decision import Decision
from engine.errors import WrongFormat
from engine.rules import require_active, require_player, require_running
from engine.state import Game, Player
from engine.table.edition import table_edition
from engine.table.errors import NotYourTurn
from engine.table.setup import board_of
from engine.table.state import Table


def require_table(state: Game | None) -> tuple[Game, Table]:
    """A running, unpaused game at the table (any edition)."""
    game = require_running(state)
    if game.table is None:
        raise WrongFormat()
    return game, game.table


def require_turn(state: Game | None, user: int) -> tuple[Game, Table, Player]:
    """The person holds the seat whose turn it is."""
    game, table = require_table(state)
    player = require_active(require_player(game, user))
    if player.seat != table.current:
        raise NotYourTurn()
    return game, table, player


def acting(decision: Decision, seat: int, now: datetime) -> None:
    """An away player who acts is back."""
    table = decision.state.table
    assert table is not None
    if table.seats[seat].away:
        decision.emit(ev.PlayerReturned(at=now, seat=seat))


def reach(game: Game, player: Player) -> Reach:
    """Where the player's token may go with this turn's roll (none before rolling)."""
    table = game.table
    assert table is not None
    origin = table.place_of(player.role)
    barred = origin if isinstance(origin, str) else None
    exact = table_edition(game).exact_roll
    blocked = table.occupied(but=player.role)
    return reachable(board_of(game), origin, sum(table.dice), blocked, barred, exact)


def reaches(found: Reach, place: Place, origin: Place) -> bool:
    """Whether `place` is a destination of `found` (never the place one stands on)."""
    if place == origin:
        return False
    if isinstance(place, str):
        return place in found.rooms
    return place in found.squares
