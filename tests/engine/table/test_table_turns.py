"""A turn at the table: the dice, moving on the board, the secret passage, no skipping."""

from __future__ import annotations

import random

import pytest

from engine import commands as cmd
from engine import events as ev
from engine.board.classic import CLASSIC as BOARD
from engine.computer import Level
from engine.detectives.table import table_move
from engine.errors import RuleError, WrongFormat
from engine.settings import Settings
from engine.table.dice import roll_dice
from engine.table.errors import (
    AlreadyMoved,
    AlreadyRolled,
    MustMove,
    MustRollFirst,
    NoSecretPassage,
    NotYourTurn,
    OutOfReach,
    RoomInReach,
)
from engine.table.queries import turn_options, whose_turn
from engine.table.state import Step
from tests.support.classic import Classic, classic

KITCHEN_DOOR = (4, 7)


def _scarlett() -> Classic:
    """Scarlett (user 1) to play; Mustard is user 2, White user 3."""
    return Classic(3, roles=("scarlett", "mustard", "white"))


def _refused(game: Classic, error: type[RuleError], command: cmd.Command) -> None:
    before = game.state
    with pytest.raises(error):
        game.run(command)
    assert game.state is before


def test_the_die_comes_from_the_seed_and_the_turn_number() -> None:
    one, other = _scarlett(), _scarlett()
    assert one.roll() == other.roll()
    rolled = one.events[-1]
    assert isinstance(rolled, ev.DiceRolled)
    assert rolled.dice == roll_dice(one.game.seed, 1, 1) and 1 <= rolled.dice[0] <= 6
    faces = {roll_dice(7, turn, 1) for turn in range(1, 60)}
    assert len(faces) == 6


def test_the_dice_count_is_a_setting_one_or_two() -> None:
    two = Classic(3, roles=("scarlett", "mustard", "white"), settings=classic(dice=2))
    two.roll()
    assert len(two.table.dice) == 2 and two.table.step is Step.MOVE


def test_move_exactly_the_roll_in_the_corridor() -> None:
    game = _scarlett()
    game.put("scarlett", (22, 13))  # in front of the Billiard Room's side door
    game.rolled(6)
    options = turn_options(game.game, 1)
    assert set(options.squares) == {(16, 13), (17, 12), (17, 14)}
    _refused(game, OutOfReach, cmd.Move(actor=1, to=(21, 13)))  # one square: short of 6
    _refused(game, OutOfReach, cmd.Move(actor=1, to=(18, 13)))  # four squares
    assert {"library", "billiard_room"} <= set(options.rooms)  # fewer, to enter a room
    _refused(game, MustMove, cmd.EndTurn(actor=1))  # rooms and squares: "move", as ever
    game.move((17, 12))
    assert game.table.place_of("scarlett") == (17, 12) and game.table.step is Step.MOVED


def test_with_no_walk_of_exactly_the_roll_the_player_may_end_the_turn_where_they_stand() -> None:
    game = _scarlett()
    game.put("white", (8, 1))  # White's one-wide passage: Scarlett stands at its mouth
    game.put("scarlett", (9, 1))
    game.rolled(3)
    options = turn_options(game.game, 1)
    assert not options.squares and options.can_end_turn
    game.end()
    assert game.current.role == "mustard" and game.table.place_of("scarlett") == (9, 1)


def _boxed_in_at_the_kitchen_door() -> Classic:
    """Scarlett on the Kitchen's door square, her three neighbours taken, a roll of 3: no
    walk of exactly 3, but the Kitchen is within it."""
    game = _scarlett()
    game.put("scarlett", KITCHEN_DOOR)
    for token, square in zip(
        ("mustard", "white", "green"), BOARD.neighbours(KITCHEN_DOOR), strict=True
    ):
        game.put(token, square)
    game.rolled(3)
    return game


def test_with_a_room_within_the_roll_and_no_exact_walk_the_player_must_enter_it() -> None:
    """ "Opgeven of niet je beurt nemen is tegen de regels" (giving up a turn is against the
    rules) and "Je hoeft niet het exacte aantal ... te gooien om een kamer binnen te gaan"."""
    game = _boxed_in_at_the_kitchen_door()
    options = turn_options(game.game, 1)
    assert not options.squares and options.rooms == ("kitchen",)
    assert not options.can_end_turn
    _refused(game, RoomInReach, cmd.EndTurn(actor=1))
    game.move("kitchen")
    assert game.table.place_of("scarlett") == "kitchen" and game.table.step is Step.MOVED
    assert turn_options(game.game, 1).can_end_turn


@pytest.mark.parametrize("level", list(Level))
def test_a_computer_detective_boxed_in_at_a_door_enters_the_room(level: Level) -> None:
    game = _boxed_in_at_the_kitchen_door()
    move = table_move(level, game.game, game.events, 0, random.Random(1))
    assert move == cmd.Move(actor=1, to="kitchen")


def test_a_leaver_on_the_kitchen_door_goes_into_the_nearest_room_and_frees_the_door() -> None:
    game = _scarlett()
    game.put("mustard", KITCHEN_DOOR)
    game.run(cmd.LeaveGame(actor=2))
    assert game.table.place_of("mustard") == "kitchen"
    game.put("scarlett", (5, 8))  # two squares from the door square: the Kitchen is 3 away
    game.rolled(3)
    assert "kitchen" in turn_options(game.game, 1).rooms
    game.move("kitchen")
    assert game.table.place_of("scarlett") == "kitchen"


def test_a_place_out_of_reach_is_refused_and_changes_nothing() -> None:
    game = _scarlett()
    game.rolled(2)
    _refused(game, OutOfReach, cmd.Move(actor=1, to="study"))
    _refused(game, OutOfReach, cmd.Move(actor=1, to=(0, 0)))
    _refused(game, OutOfReach, cmd.Move(actor=1, to=(7, 24)))  # where it stands


def test_never_through_or_onto_a_square_another_token_holds() -> None:
    game = _scarlett()
    game.put("scarlett", (18, 13))
    game.put("mustard", (19, 13))
    game.rolled(2)
    _refused(game, OutOfReach, cmd.Move(actor=1, to=(19, 13)))  # onto
    _refused(game, OutOfReach, cmd.Move(actor=1, to=(20, 13)))  # through: the only way
    game.put("mustard", "lounge")
    game.move((20, 13))


def test_doors_are_not_squares_and_no_exact_count_is_needed_to_enter_a_room() -> None:
    game = _scarlett()
    game.put("scarlett", KITCHEN_DOOR)
    game.rolled(6)
    assert "kitchen" in turn_options(game.game, 1).rooms
    game.move("kitchen")
    assert game.table.place_of("scarlett") == "kitchen"


def test_entering_a_room_ends_the_move() -> None:
    game = _scarlett()
    game.put("scarlett", KITCHEN_DOOR)
    game.rolled(6)
    game.move("kitchen")
    assert game.table.step is Step.MOVED and game.table.entered
    _refused(game, AlreadyMoved, cmd.Move(actor=1, to=KITCHEN_DOOR))


def test_no_leaving_and_reentering_a_room_in_the_same_turn() -> None:
    game = _scarlett()
    game.put("scarlett", "kitchen")
    game.rolled(6)
    assert "kitchen" not in turn_options(game.game, 1).rooms
    _refused(game, OutOfReach, cmd.Move(actor=1, to="kitchen"))


def test_a_player_in_a_corner_room_may_take_the_secret_passage_instead_of_rolling() -> None:
    game = _scarlett()
    game.put("scarlett", "kitchen")
    assert turn_options(game.game, 1).passage == "study"
    game.passage()
    assert game.table.place_of("scarlett") == "study"
    assert game.table.step is Step.MOVED and game.table.entered


def test_the_secret_passage_only_from_a_corner_room_and_only_instead_of_rolling() -> None:
    game = _scarlett()
    game.put("scarlett", "hall")
    _refused(game, NoSecretPassage, cmd.TakePassage(actor=1))
    game.put("scarlett", "lounge")
    game.roll()
    _refused(game, AlreadyRolled, cmd.TakePassage(actor=1))
    _refused(game, AlreadyRolled, cmd.Roll(actor=1))


def test_skipping_a_turn_is_not_allowed() -> None:
    game = _scarlett()
    _refused(game, MustMove, cmd.EndTurn(actor=1))
    _refused(game, MustRollFirst, cmd.Move(actor=1, to=(7, 23)))
    game.roll()
    _refused(game, MustMove, cmd.EndTurn(actor=1))  # squares in reach: no word of a room


def test_a_roll_that_leaves_nowhere_to_go_lets_the_player_end_the_turn() -> None:
    game = _scarlett()
    game.put("scarlett", "kitchen")
    game.put("mustard", KITCHEN_DOOR)
    game.roll()
    options = turn_options(game.game, 1)
    assert not options.rooms and not options.squares and options.can_end_turn
    game.end()
    assert game.current.role == "mustard"


def test_only_the_player_whose_turn_it_is_moves() -> None:
    game = _scarlett()
    assert whose_turn(game.game) == game.game.players[0]
    _refused(game, NotYourTurn, cmd.Roll(actor=2))
    with pytest.raises(NotYourTurn):
        turn_options(game.game, 2)


def test_moving_after_the_move_is_refused() -> None:
    game = _scarlett()
    game.roll()
    game.move(turn_options(game.game, 1).squares[0])
    _refused(game, AlreadyMoved, cmd.Roll(actor=1))
    _refused(game, AlreadyMoved, cmd.TakePassage(actor=1))


def test_table_commands_are_refused_in_a_forum_game_and_forum_ones_at_the_table() -> None:
    forum = Classic(3, settings=Settings())
    _refused(forum, WrongFormat, cmd.Roll(actor=1))
    table = _scarlett()
    suggestion = cmd.MakeSuggestion(actor=1, target=2, suspect="plum", weapon="rope", place="hall")
    _refused(table, WrongFormat, suggestion)


def test_turn_options_offer_towards_each_room_out_of_reach() -> None:
    game = _scarlett()
    game.rolled(3)
    options = turn_options(game.game, 1)
    assert not options.rooms
    aims = dict(options.towards)
    assert set(aims) == set(BOARD.rooms)
    assert all(square in options.squares for square in aims.values())
