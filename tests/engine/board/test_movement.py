"""Movement on the classic board, one test per rule of the rulebook."""

from __future__ import annotations

import pytest

from engine.board import CLASSIC, nearest_room, occupied, reachable, towards
from engine.board.model import Square
from engine.board.movement import distances

NONE: frozenset[Square] = frozenset()
KITCHEN_DOOR = (4, 7)  # the square in front of the Kitchen's one door


def test_moves_are_orthogonal() -> None:
    assert reachable(CLASSIC, (12, 8), 1, NONE).squares == {(11, 8), (13, 8), (12, 9)}
    two = reachable(CLASSIC, (12, 8), 2, NONE).squares
    assert (11, 9) in two  # two steps: left then down
    assert (13, 7) not in two  # the Ballroom, not a square


def test_exactly_the_roll_in_the_corridor() -> None:
    # The rulebook: the token moves the number shown; stopping short is not allowed.
    reach = reachable(CLASSIC, CLASSIC.starts["scarlett"], 3, NONE)
    assert reach.squares == {(7, 21), (8, 22)}
    for steps in range(1, 13):
        squares = reachable(CLASSIC, (12, 8), steps, NONE).squares
        assert squares, steps
        assert all((abs(c - 12) + abs(r - 8)) % 2 == steps % 2 for c, r in squares)


def test_a_roll_of_six_offers_no_nearer_square_but_a_room_three_away() -> None:
    # In front of the Billiard Room's side door; the Library's door square is two left.
    origin = (22, 13)
    reach = reachable(CLASSIC, origin, 6, NONE)
    steps = distances(CLASSIC, origin, 12, NONE)
    assert reach.squares == {(16, 13), (17, 12), (17, 14)}
    assert {steps[s] for s in reach.squares} == {6}
    assert steps[(20, 13)] == 2 and "library" in reach.rooms  # a room 3 steps away
    assert "billiard_room" in reach.rooms  # and the one a step away


def test_a_walk_may_wind_but_never_revisits() -> None:
    # In a two-lane corridor a roll of 4 can end one square from the start.
    origin = (7, 22)
    assert (8, 22) in reachable(CLASSIC, origin, 3, NONE).squares
    assert origin not in reachable(CLASSIC, origin, 4, NONE).squares


def test_never_the_same_square_twice_so_never_back_to_the_start() -> None:
    start = CLASSIC.starts["white"]
    for steps in range(1, 13):
        assert start not in reachable(CLASSIC, start, steps, NONE).squares


def test_cannot_pass_through_a_token() -> None:
    # White's start leads up a one-square-wide passage: (9,1), (8,1), (7,1), then down.
    free = reachable(CLASSIC, CLASSIC.starts["white"], 12, NONE)
    assert (7, 6) in free.squares
    stuck = reachable(CLASSIC, CLASSIC.starts["white"], 12, frozenset({(8, 1)}))
    assert not stuck.squares  # one square up is all there is: no walk of 12
    assert not stuck.rooms
    assert reachable(CLASSIC, CLASSIC.starts["white"], 1, frozenset({(8, 1)})).squares == {(9, 1)}


def test_cannot_land_on_a_token() -> None:
    token = (7, 22)
    reach = reachable(CLASSIC, CLASSIC.starts["scarlett"], 3, frozenset({token}))
    assert token not in reach.squares
    assert (8, 22) in reach.squares  # around it, by the second lane


def test_rooms_hold_any_number_of_tokens() -> None:
    # Tokens in rooms are not squares: only corridor squares ever block.
    others = frozenset(CLASSIC.starts.values()) - {CLASSIC.starts["plum"]}
    assert "study" in reachable(CLASSIC, CLASSIC.starts["plum"], 8, others).rooms


def test_doors_are_not_squares() -> None:
    # From the square in front of a door, one step enters the room ...
    assert reachable(CLASSIC, KITCHEN_DOOR, 1, NONE).rooms == {"kitchen"}
    # ... and from the room, one step reaches that square.
    out = reachable(CLASSIC, "kitchen", 1, NONE)
    assert out.squares == {KITCHEN_DOOR}
    assert not out.rooms


def test_no_exact_count_needed_to_enter_a_room() -> None:
    for steps in range(1, 13):
        assert "kitchen" in reachable(CLASSIC, KITCHEN_DOOR, steps, NONE).rooms
    # the Study is 8 steps from Plum's start: an 8 and a 12 both get in
    assert "study" not in reachable(CLASSIC, CLASSIC.starts["plum"], 7, NONE).rooms
    assert "study" in reachable(CLASSIC, CLASSIC.starts["plum"], 8, NONE).rooms
    assert "study" in reachable(CLASSIC, CLASSIC.starts["plum"], 12, NONE).rooms


def test_entering_a_room_ends_the_move() -> None:
    # Through the Ballroom's left door and out of its right one would take 5 steps;
    # the corridor way round the Ballroom takes far more than 7.
    reach = reachable(CLASSIC, (6, 5), 7, NONE)
    assert "ballroom" in reach.rooms
    assert (16, 5) not in reach.squares
    assert (17, 5) not in reach.squares


def test_cannot_reenter_the_room_left_this_turn() -> None:
    # Leaving the Ballroom by one door, its other doors are within reach but it is barred.
    reach = reachable(CLASSIC, "ballroom", 6, NONE)
    assert (9, 8) in reach.squares and (14, 8) in reach.squares
    assert "ballroom" not in reach.rooms
    # the same when the move is given from a square with the room it left
    assert "kitchen" not in reachable(CLASSIC, KITCHEN_DOOR, 3, NONE, barred_room="kitchen").rooms


def test_leaving_a_room_through_any_of_its_doors() -> None:
    reach = reachable(CLASSIC, "ballroom", 1, NONE)
    assert reach.squares == {(7, 5), (16, 5), (9, 8), (14, 8)}


def test_a_token_on_the_doorway_keeps_a_room_shut() -> None:
    assert reachable(CLASSIC, "kitchen", 12, frozenset({KITCHEN_DOOR})) == reachable(
        CLASSIC, "kitchen", 0, NONE
    )
    assert "kitchen" not in reachable(CLASSIC, (4, 8), 12, frozenset({KITCHEN_DOOR})).rooms


def test_a_token_never_blocks_itself() -> None:
    start = CLASSIC.starts["scarlett"]
    assert reachable(CLASSIC, start, 2, frozenset({start})) == reachable(CLASSIC, start, 2, NONE)


def test_unknown_origins_are_refused() -> None:
    with pytest.raises(ValueError):
        reachable(CLASSIC, "attic", 6, NONE)
    with pytest.raises(ValueError):
        reachable(CLASSIC, (0, 0), 6, NONE)  # not a corridor square


def test_towards_a_room_out_of_reach_ends_nearest_to_it() -> None:
    # Scarlett rolls 3, the Kitchen is far up the left: she goes up the left lane.
    assert towards(CLASSIC, CLASSIC.starts["scarlett"], 3, NONE, "kitchen") == (7, 21)
    # with a token in the left lane she goes round it by the right lane
    around = towards(CLASSIC, CLASSIC.starts["scarlett"], 3, frozenset({(7, 22)}), "kitchen")
    assert around == (8, 22)


def test_towards_a_room_within_reach_is_none() -> None:
    assert towards(CLASSIC, CLASSIC.starts["plum"], 8, NONE, "study") is None
    assert towards(CLASSIC, "kitchen", 6, frozenset({KITCHEN_DOOR}), "study") is None


def test_nearest_room_of_a_doorway_is_its_room() -> None:
    for door in CLASSIC.doors:
        if len(CLASSIC.rooms_entered_from(door.square)) == 1:
            assert nearest_room(CLASSIC, door.square) == door.room
    assert nearest_room(CLASSIC, CLASSIC.starts["mustard"]) in {"lounge", "dining_room"}


def test_occupied_squares_are_the_other_tokens_on_the_corridor() -> None:
    tokens: dict[str, Square | str] = {
        "scarlett": (7, 23),
        "mustard": "lounge",
        "white": (9, 1),
        "green": (14, 1),
    }
    assert occupied(tokens, "white") == {(7, 23), (14, 1)}
    assert occupied(tokens, "mustard") == {(7, 23), (9, 1), (14, 1)}
