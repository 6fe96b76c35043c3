"""The classic board as data: the real 24 × 25 layout, its rooms, doors, starts, passages."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine import REGISTRY
from engine.board import CLASSIC, Door
from engine.board.classic import CLASSIC_MAP, CLASSIC_ROOMS, CLASSIC_SUSPECTS, board_from_map
from engine.board.model import validate
from engine.cards import CLASSIC as CLASSIC_PACK

STANDARD_DOORS = {
    "kitchen": 1,
    "ballroom": 4,
    "conservatory": 1,
    "billiard_room": 2,
    "library": 2,
    "study": 1,
    "hall": 3,
    "lounge": 1,
    "dining_room": 2,
}


def test_the_grid_is_24_by_25() -> None:
    assert (CLASSIC.width, CLASSIC.height) == (24, 25)
    assert len(CLASSIC_MAP) == 25
    assert all(len(row) == 24 for row in CLASSIC_MAP)


def test_counts_of_squares_doors_and_starts() -> None:
    assert len(CLASSIC.corridor) == 188
    assert len(CLASSIC.doors) == 17
    assert len(CLASSIC.starts) == 6
    assert {room: len(CLASSIC.doors_of(room)) for room in CLASSIC.rooms} == STANDARD_DOORS


def test_rooms_and_suspects_are_the_classic_pack_cards() -> None:
    assert CLASSIC.rooms == CLASSIC_PACK.places[:9]
    assert tuple(CLASSIC.starts) == CLASSIC_PACK.suspects[:6]
    assert REGISTRY.boards["classic"] is CLASSIC


def test_start_squares_on_the_standard_edges() -> None:
    starts = CLASSIC.starts
    assert starts["scarlett"] == (7, 24)  # bottom edge, beside the Lounge
    assert starts["mustard"] == (0, 17)  # left edge, between Dining Room and Lounge
    assert starts["white"] == (9, 0)  # top edge, left of the Ballroom
    assert starts["green"] == (14, 0)  # top edge, right of the Ballroom
    assert starts["peacock"] == (23, 6)  # right edge, below the Conservatory
    assert starts["plum"] == (23, 19)  # right edge, above the Study
    for square in starts.values():
        c, r = square
        assert c in (0, 23) or r in (0, 24), f"{square} is not on the edge"
        assert len(CLASSIC.neighbours(square)) == 1  # a start square leads into one corridor


def test_every_door_square_is_walkable_and_next_to_its_room() -> None:
    for door in CLASSIC.doors:
        assert door.square in CLASSIC.corridor
        c, r = door.square
        around = {(c, r - 1), (c - 1, r), (c + 1, r), (c, r + 1)}
        assert around & CLASSIC.room_squares[door.room], door


def test_the_corridor_is_connected() -> None:
    seen = {CLASSIC.starts["scarlett"]}
    todo = list(seen)
    while todo:
        for near in CLASSIC.neighbours(todo.pop()):
            if near not in seen:
                seen.add(near)
                todo.append(near)
    assert seen == CLASSIC.corridor


def test_the_centre_is_not_walkable() -> None:
    assert len(CLASSIC.centre) == 35
    assert not CLASSIC.centre & CLASSIC.corridor
    assert all(CLASSIC.room_at(square) is None for square in CLASSIC.centre)


def test_rooms_do_not_overlap_the_corridor() -> None:
    shapes = list(CLASSIC.room_squares.values())
    assert all(shape and not shape & CLASSIC.corridor for shape in shapes)
    assert sum(len(s) for s in shapes) == len(set().union(*shapes))


def test_the_secret_passages() -> None:
    assert dict(CLASSIC.passages) == {
        "kitchen": "study",
        "study": "kitchen",
        "conservatory": "lounge",
        "lounge": "conservatory",
    }


def test_the_corner_rooms_are_in_the_corners() -> None:
    assert CLASSIC.room_at((0, 1)) == "kitchen"
    assert CLASSIC.room_at((23, 1)) == "conservatory"
    assert CLASSIC.room_at((0, 24)) == "lounge"
    assert CLASSIC.room_at((23, 24)) == "study"


def test_neighbours_are_orthogonal_corridor_squares() -> None:
    for square in CLASSIC.corridor:
        for near in CLASSIC.neighbours(square):
            assert near in CLASSIC.corridor
            assert abs(near[0] - square[0]) + abs(near[1] - square[1]) == 1
    assert CLASSIC.neighbours((0, 0)) == ()


def test_a_broken_map_is_refused() -> None:
    rows = list(CLASSIC_MAP)
    rows[7] = "....K" + rows[7][5:]  # the kitchen door square walled up: kitchen sealed
    with pytest.raises(ValueError, match="kitchen cannot be entered"):
        board_from_map("broken", rows, CLASSIC_ROOMS, CLASSIC_SUSPECTS, ())
    with pytest.raises(ValueError, match="1 start squares"):
        board_from_map("broken", CLASSIC_MAP, CLASSIC_ROOMS, ("scarlett",) * 6, ())
    with pytest.raises(ValueError, match="not paired"):
        validate(replace(CLASSIC, passages={"kitchen": "study"}))
    with pytest.raises(ValueError, match="not corridor"):
        validate(replace(CLASSIC, doors=(*CLASSIC.doors, Door("hall", (0, 0)))))
    with pytest.raises(ValueError, match="not connected"):
        validate(replace(CLASSIC, corridor=CLASSIC.corridor | {(0, 0)}))
