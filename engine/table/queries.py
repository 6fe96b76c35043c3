"""What the bot asks of a table game: whose turn, what the player may do now, where the
tokens and weapons are, and which cards the asked refuter may show."""

from __future__ import annotations

from dataclasses import dataclass

from engine.board.model import Place, Square
from engine.board.movement import towards
from engine.cards import CardId
from engine.ids import Seat
from engine.state import Game, Player
from engine.table.checks import reach, require_table
from engine.table.edition import table_edition
from engine.table.errors import NotYourTurn
from engine.table.setup import board_of
from engine.table.state import Step, Table, TableSuggestion
from engine.table.suggest import refutation_choices
from engine.table.turns import instead_of_walking_now, may_end_turn, may_stay

__all__ = [
    "TurnOptions",
    "places",
    "refutation_choices",
    "turn_options",
    "weapon_rooms",
    "whose_turn",
]


@dataclass(frozen=True)
class TurnOptions:
    """The current player's legal actions; the bot offers exactly these."""

    seat: int
    step: Step
    can_roll: bool
    passage: str | None  # the room the secret passage leads to, when it may be taken
    can_stay: bool
    can_draw_clue: bool  # an edition with clue cards (the 2023: a glass was rolled)
    rooms: tuple[str, ...]  # rooms within this roll, in board order
    squares: tuple[Square, ...]  # corridor squares within this roll
    towards: tuple[tuple[str, Square], ...]  # each room out of reach: the square nearest it
    suggest_in: str | None  # the room a suggestion would name, when one may be made
    can_end_turn: bool
    can_accuse: bool


def table_of(game: Game) -> Table:
    """The table of a game played at one (a forum game has none: an AssertionError)."""
    table = game.table
    assert table is not None, "a forum game has no table"
    return table


def pending_suggestion(game: Game) -> TableSuggestion | None:
    """The suggestion at the table waiting on a refuter (None: none, or no table)."""
    return game.table.pending if game.table is not None else None


def seat_to_play(game: Game) -> Seat | None:
    """The seat whose turn it is at the table (None: no table)."""
    return game.table.current if game.table is not None else None


def whose_turn(game: Game) -> Player | None:
    """The player whose turn it is (None outside a running table game)."""
    if game.table is None or not game.running:
        return None
    return game.players[game.table.current]


def turn_options(game: Game, user: int) -> TurnOptions:
    """What `user` may do now; a RuleError if it is not their turn."""
    _, table = require_table(game)
    player = game.player_of(user)
    if player is None or player.seat != table.current:
        raise NotYourTurn()
    board = board_of(game)
    here = table.place_of(player.role)
    first = table.step is Step.ROLL
    instead_of_walking = instead_of_walking_now(game)
    edition = table_edition(game)
    passage = board.passages.get(here) if instead_of_walking and isinstance(here, str) else None
    rooms: tuple[str, ...] = ()
    squares: tuple[Square, ...] = ()
    aims: list[tuple[str, Square]] = []
    if table.step is Step.MOVE:
        found = reach(game, player)
        rooms = tuple(r for r in board.rooms if r in found.rooms)
        squares = tuple(sorted(found.squares, key=lambda s: (s[1], s[0])))
        blocked = table.occupied(but=player.role)
        for room in board.rooms:
            if room in found.rooms or room == here:
                continue
            square = towards(board, here, sum(table.dice), blocked, room, found)
            if square is not None:
                aims.append((room, square))
    may_suggest = table.step is Step.MOVED and table.entered and isinstance(here, str)
    return TurnOptions(
        seat=player.seat,
        step=table.step,
        can_roll=first,
        passage=passage,
        can_stay=instead_of_walking and may_stay(game, player.seat),
        can_draw_clue=edition.may_draw_clue(table),
        rooms=rooms,
        squares=squares,
        towards=tuple(aims),
        suggest_in=here if may_suggest and isinstance(here, str) else None,
        can_end_turn=may_end_turn(game),
        can_accuse=table.step is not Step.REFUTING and edition.may_accuse_now(game, player.seat),
    )


def places(game: Game) -> tuple[tuple[CardId, Place], ...]:
    """Every suspect token's place (a room key, or a corridor square as (column, row));
    empty outside a table game."""
    return game.table.tokens if game.table is not None else ()


def weapon_rooms(game: Game) -> tuple[tuple[CardId, str], ...]:
    """Every weapon's room; empty outside a table game."""
    return game.table.weapons if game.table is not None else ()
