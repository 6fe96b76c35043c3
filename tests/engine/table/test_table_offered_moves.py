"""Property: every move offered for a random position and roll is legal, and every legal
destination is offered (rooms and squares; "towards" squares are among them)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import commands as cmd
from engine.board.classic import CLASSIC as BOARD
from engine.board.model import Place
from engine.computer import Level
from engine.decide import decide
from engine.detectives.table import table_move
from engine.table.errors import OutOfReach
from engine.table.queries import turn_options
from tests.support.classic import Classic

SQUARES = sorted(BOARD.corridor)
PLACES: list[Place] = [*BOARD.rooms, *SQUARES]


@st.composite
def positions(draw: st.DrawFn) -> Classic:
    """A 3-player game with the six tokens anywhere legal and a roll of 1 to 12."""
    game = Classic(3, seed=draw(st.integers(0, 50)))
    chosen = draw(
        st.lists(st.sampled_from(PLACES), min_size=6, max_size=6).filter(
            lambda ps: (
                len({p for p in ps if isinstance(p, tuple)})
                == sum(isinstance(p, tuple) for p in ps)
            )
        )
    )
    for (suspect, _), place in zip(game.table.tokens, chosen, strict=True):
        game.put(suspect, place)
    game.rolled(draw(st.integers(1, 12)))
    return game


def _legal(game: Classic, place: Place) -> bool:
    try:
        decide(game.state, cmd.Move(actor=game.current.user, to=place), game.now)
    except OutOfReach:
        return False
    return True


@settings(max_examples=40, deadline=None)
@given(positions())
def test_every_offered_move_is_legal_and_every_legal_destination_is_offered(
    game: Classic,
) -> None:
    options = turn_options(game.game, game.current.user)
    offered = {*options.rooms, *options.squares}
    assert {square for _, square in options.towards} <= set(options.squares)
    assert offered == {place for place in PLACES if _legal(game, place)}


def test_a_roll_that_reaches_no_room_offers_the_way_towards_every_room() -> None:
    """Rule: a player must move; with only corridor squares in reach, every room is offered
    "towards" (the reachable square nearest it), each a legal move that ends the turn."""
    game = Classic(3, roles=("scarlett", "mustard", "white"))
    game.put("scarlett", (16, 24))  # her start square, far from every door
    game.rolled(2)
    options = turn_options(game.game, game.current.user)
    assert options.rooms == () and options.squares
    assert {room for room, _ in options.towards} == set(BOARD.rooms)
    assert not options.can_end_turn  # moving is not optional
    for _, square in options.towards:
        assert _legal(game, square)
    game.move(options.towards[0][1])
    after = turn_options(game.game, game.current.user)
    assert after.can_end_turn and after.suggest_in is None
    game.end()
    assert game.current.role == "mustard"


def test_a_roll_of_one_out_of_a_room_offers_the_way_towards_the_other_rooms() -> None:
    game = Classic(3, roles=("scarlett", "mustard", "white"))
    game.put("scarlett", "lounge")
    game.rolled(1)
    options = turn_options(game.game, game.current.user)
    assert options.rooms == ()
    assert {room for room, _ in options.towards} == set(BOARD.rooms) - {"lounge"}


@settings(max_examples=40, deadline=None)
@given(positions())
def test_with_no_room_in_reach_every_other_room_is_offered_towards(game: Classic) -> None:
    options = turn_options(game.game, game.current.user)
    here = game.table.place_of(game.current.role)
    if options.squares and not options.rooms:
        assert {room for room, _ in options.towards} == set(BOARD.rooms) - {here}
    # Only boxed in may the turn end without moving; a room within the roll is entered.
    assert options.can_end_turn == (not options.squares and not options.rooms)


@settings(max_examples=40, deadline=None)
@given(positions(), st.sampled_from(list(Level)))
def test_a_computer_detective_after_the_roll_makes_a_legal_move(
    game: Classic, level: Level
) -> None:
    """Whatever the position, its move is accepted: it never tries to end the turn while
    a room or a square is in reach."""
    move = table_move(level, game.game, game.events, game.current.seat, random.Random(0))
    assert move is not None
    decide(game.state, move, game.now)  # raises a RuleError if refused
    if isinstance(move, cmd.EndTurn):
        options = turn_options(game.game, game.current.user)
        assert not options.rooms and not options.squares
