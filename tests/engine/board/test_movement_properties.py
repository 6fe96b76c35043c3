"""Properties of movement: what `reachable` offers is exactly what a brute-force walk of
every legal move finds (exactly the roll in the corridor, fewer only into a room), and
`towards` ends as near the room as any square in reach."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.board import CLASSIC, Place, reachable, towards
from engine.board.model import Square

SQUARES = sorted(CLASSIC.corridor)


def _around(square: Square) -> list[Square]:
    c, r = square
    return [s for s in ((c, r - 1), (c - 1, r), (c + 1, r), (c, r + 1)) if s in CLASSIC.corridor]


def _door_rooms(square: Square) -> list[str]:
    return [door.room for door in CLASSIC.doors if door.square == square]


def brute_force(
    origin: Place, steps: int, blocked: frozenset[Square], barred: str | None
) -> set[Place]:
    """Every place a legal move ends on, by trying every walk step by step: a corridor
    square when the walk has used exactly the roll, a room whenever a door is passed."""
    ends: set[Place] = set()
    barred_rooms = {barred, origin} if isinstance(origin, str) else {barred}

    def walk(square: Square, used: int, seen: frozenset[Square]) -> None:
        if used == steps:
            ends.add(square)
            return
        for room in _door_rooms(square):  # through the door: one step, and the move ends
            if room not in barred_rooms:
                ends.add(room)
        for near in _around(square):
            if near not in seen and near not in blocked:
                walk(near, used + 1, seen | {near})

    if isinstance(origin, str):
        for door in CLASSIC.doors:
            if door.room == origin and door.square not in blocked:
                walk(door.square, 1, frozenset({door.square}))
    else:
        seen = frozenset({origin})
        for room in _door_rooms(origin):
            if room not in barred_rooms and steps >= 1:
                ends.add(room)
        for near in _around(origin):
            if near not in blocked:
                walk(near, 1, seen | {near})
    return ends


def _into(room: str) -> dict[Square, int]:
    """Steps from each square into the room, by breadth-first search from its doors."""
    dist = {door.square: 1 for door in CLASSIC.doors if door.room == room}
    todo = list(dist)
    while todo:
        square = todo.pop(0)
        for near in _around(square):
            if near not in dist:
                dist[near] = dist[square] + 1
                todo.append(near)
    return dist


@st.composite
def positions(draw: st.DrawFn) -> tuple[Place, frozenset[Square]]:
    """A token's place and up to five other tokens on corridor squares."""
    origin: Place = draw(st.sampled_from(SQUARES) | st.sampled_from(CLASSIC.rooms))
    others = draw(st.lists(st.sampled_from(SQUARES), max_size=5))
    return origin, frozenset(others) - {origin}


@settings(max_examples=150, deadline=None)
@given(
    position=positions(),
    steps=st.integers(2, 12),
    barred=st.none() | st.sampled_from(CLASSIC.rooms),
)
def test_every_offered_move_is_legal_and_every_legal_move_of_exactly_the_roll_offered(
    position: tuple[Place, frozenset[Square]], steps: int, barred: str | None
) -> None:
    origin, blocked = position
    if isinstance(origin, str):
        barred = None  # leaving a room bars that room; nothing else is left this turn
    reach = reachable(CLASSIC, origin, steps, blocked, barred_room=barred)
    found = brute_force(origin, steps, blocked, barred) - {origin}
    assert reach.squares | reach.rooms == found
    assert not reach.squares & blocked


@settings(max_examples=150, deadline=None)
@given(position=positions(), steps=st.integers(2, 12), room=st.sampled_from(CLASSIC.rooms))
def test_towards_ends_as_near_the_room_as_anything_in_reach(
    position: tuple[Place, frozenset[Square]], steps: int, room: str
) -> None:
    origin, blocked = position
    reach = reachable(CLASSIC, origin, steps, blocked)
    end = towards(CLASSIC, origin, steps, blocked, room)
    if room in reach.rooms or not reach.squares:
        assert end is None
        return
    assert end in reach.squares
    into = _into(room)
    assert all(into[end] <= into[square] for square in reach.squares)
