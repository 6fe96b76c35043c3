"""How a token moves: the places it may end on after a roll, and the way towards a room.

The rules (classic rulebook): orthogonal steps, exactly the roll in the corridor ("the
number shown on the die"); never the same square twice in a turn; never through or onto a
square another token holds (rooms hold any number); doors are not squares (the square in
front of a door -> the room is one step, the room -> a door's square is one step); fewer
steps only to enter a room ("you need not throw the exact number to enter a room");
entering a room ends the move; the room left this turn may not be entered again.

A room is entered within the roll when its door square is at most roll - 1 steps away by a
shortest way (a shortest way never visits a square twice), so a breadth-first search finds
the rooms. A corridor square is an end only when some walk of exactly the roll, never on
the same square twice, stops there: a depth-first search over those walks (at most a few
thousand on this board for a roll of 12) finds the squares. An edition whose rulebook lets
a token stop short (the 2023 edition's `exact_roll`) takes every square within the roll.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, lru_cache

from engine.board.model import Board, Place, Square

_FAR = 10**6


@dataclass(frozen=True)
class Reach:
    """Where a token may end its move: rooms entered, or corridor squares."""

    rooms: frozenset[str]
    squares: frozenset[Square]

    def __contains__(self, place: object) -> bool:
        return place in self.rooms or place in self.squares


def _first_squares(board: Board, origin: Place, blocked: frozenset[Square]) -> list[Square]:
    """The squares one step from the origin: a room's free door squares, or a square's
    free neighbours."""
    if isinstance(origin, str):
        if origin not in board.rooms:
            raise ValueError(f"unknown room {origin!r}")
        return sorted({d.square for d in board.doors_of(origin)} - blocked)
    if origin not in board.corridor:
        raise ValueError(f"{origin} is not a corridor square")
    return [s for s in board.neighbours(origin) if s not in blocked]


def distances(
    board: Board, origin: Place, steps: int, blocked: frozenset[Square]
) -> dict[Square, int]:
    """Steps to each corridor square within `steps` (the origin square at 0)."""
    if isinstance(origin, tuple):
        blocked = blocked - {origin}  # a token never blocks itself
    dist: dict[Square, int] = {origin: 0} if isinstance(origin, tuple) else {}
    frontier = _first_squares(board, origin, blocked) if steps > 0 else []
    for square in frontier:
        dist[square] = 1
    step = 1
    while frontier and step < steps:
        step += 1
        following: list[Square] = []
        for square in frontier:
            for near in board.neighbours(square):
                if near not in dist and near not in blocked:
                    dist[near] = step
                    following.append(near)
        frontier = following
    return dist


@lru_cache(maxsize=512)
def reachable(
    board: Board,
    origin: Place,
    steps: int,
    blocked: frozenset[Square],
    barred_room: str | None = None,
    exact: bool = True,
) -> Reach:
    """Every place a token may end on: a corridor square at the end of a walk of exactly
    `steps` (of one to `steps` when not `exact`), or a room entered within `steps`.

    `blocked` holds the squares of the other tokens; `barred_room` is a room left this
    turn. A token starting in a room leaves it through one of its doors, so that room is
    barred too. Kept for the last few hundred positions, as `exact_walk_ends`: a turn asks
    several times (its options, its prompt, the move, whether it may end).
    """
    barred = {barred_room, origin} if isinstance(origin, str) else {barred_room}
    dist = distances(board, origin, steps, blocked)
    rooms = {
        room
        for square, d in dist.items()
        if d < steps
        for room in board.rooms_entered_from(square)
        if room not in barred
    }
    if not exact:  # a shortest way never visits a square twice: its length is the walk's
        return Reach(frozenset(rooms), frozenset(s for s, d in dist.items() if d > 0))
    return Reach(rooms=frozenset(rooms), squares=exact_walk_ends(board, origin, steps, blocked))


@lru_cache(maxsize=512)
def exact_walk_ends(
    board: Board, origin: Place, steps: int, blocked: frozenset[Square]
) -> frozenset[Square]:
    """The corridor squares where a walk of exactly `steps` from `origin` may stop (never
    the same square twice, never through `blocked`); none for no steps. Kept for the last
    few hundred positions: a turn asks again for the position it is in (its prompt, its
    move, the next update's prompt)."""
    if steps <= 0:
        return frozenset()
    if isinstance(origin, tuple):
        blocked = blocked - {origin}
    ends: set[Square] = set()
    neighbours = board.neighbours

    def walk(square: Square, left: int, seen: set[Square]) -> None:
        if left == 0:
            ends.add(square)
            return
        for near in neighbours(square):
            if near not in seen and near not in blocked:
                seen.add(near)
                walk(near, left - 1, seen)
                seen.discard(near)

    for first in _first_squares(board, origin, blocked):
        seen = {first} if isinstance(origin, str) else {origin, first}
        walk(first, steps - 1, seen)
    return frozenset(ends)


@cache
def room_distances(board: Board, room: str) -> dict[Square, int]:
    """Steps from each corridor square into a room, as if no token stood in the way."""
    dist: dict[Square, int] = {}
    frontier = sorted({d.square for d in board.doors_of(room)})
    for square in frontier:
        dist[square] = 1
    step = 1
    while frontier:
        step += 1
        following: list[Square] = []
        for square in frontier:
            for near in board.neighbours(square):
                if near not in dist:
                    dist[near] = step
                    following.append(near)
        frontier = following
    return dist


def towards(
    board: Board,
    origin: Place,
    steps: int,
    blocked: frozenset[Square],
    room: str,
    reach: Reach | None = None,
) -> Square | None:
    """For a room out of reach: the square within reach nearest to the room (distance
    counted as if no token stood in the way; ties go to the topmost, then leftmost).

    None when the room is within reach or no square is. `reach`, when given, is
    `reachable(board, origin, steps, blocked)` already computed.
    """
    if reach is None:
        reach = reachable(board, origin, steps, blocked)
    if room in reach.rooms or not reach.squares:
        return None
    into = room_distances(board, room)
    return min(reach.squares, key=lambda s: (into.get(s, _FAR), s[1], s[0]))


def nearest_room(board: Board, square: Square) -> str:
    """The room fewest steps away (ignoring tokens; ties in board order): where a wrong
    accuser standing in a corridor is moved, so as not to block a doorway."""
    return min(
        board.rooms,
        key=lambda room: (room_distances(board, room).get(square, _FAR), board.rooms.index(room)),
    )


def occupied(tokens: Mapping[str, Place], mover: str) -> frozenset[Square]:
    """The squares the other tokens stand on: what `reachable` takes as `blocked`."""
    return frozenset(
        place for token, place in tokens.items() if token != mover and isinstance(place, tuple)
    )
