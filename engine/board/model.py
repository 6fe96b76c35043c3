"""A board as data: corridor squares, rooms with their doors, start squares, passages."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

Square = tuple[int, int]  # (column, row), 0-based, (0, 0) top-left
Place = Square | str  # a corridor square, or a room key

_STEPS: tuple[Square, ...] = ((0, -1), (-1, 0), (1, 0), (0, 1))  # up, left, right, down


@dataclass(frozen=True)
class Door:
    """A door of a room; `square` is the corridor square in front of it."""

    room: str
    square: Square


@dataclass(frozen=True)
class Board:
    """Squares a token may stand on, rooms (any number of tokens), doors and passages.

    `room_squares` and `centre` only serve drawing; movement needs the rest.
    """

    key: str
    width: int
    height: int
    corridor: frozenset[Square]  # walkable squares (start squares included)
    rooms: tuple[str, ...]  # room keys in a fixed order
    doors: tuple[Door, ...]
    starts: Mapping[str, Square]  # suspect key -> start square
    passages: Mapping[str, str]  # room -> room (both directions listed)
    room_squares: Mapping[str, frozenset[Square]] = field(default_factory=dict)
    centre: frozenset[Square] = frozenset()
    _neighbours: Mapping[Square, tuple[Square, ...]] = field(init=False, repr=False, compare=False)
    _doors_of: Mapping[str, tuple[Door, ...]] = field(init=False, repr=False, compare=False)
    _entries: Mapping[Square, tuple[str, ...]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        neighbours = {
            square: tuple(
                step
                for dc, dr in _STEPS
                if (step := (square[0] + dc, square[1] + dr)) in self.corridor
            )
            for square in self.corridor
        }
        doors_of = {room: tuple(d for d in self.doors if d.room == room) for room in self.rooms}
        entries: dict[Square, tuple[str, ...]] = {}
        for door in self.doors:
            if door.room not in entries.get(door.square, ()):
                entries[door.square] = (*entries.get(door.square, ()), door.room)
        object.__setattr__(self, "_neighbours", neighbours)
        object.__setattr__(self, "_doors_of", doors_of)
        object.__setattr__(self, "_entries", entries)

    def __hash__(self) -> int:
        return hash(self.key)

    def neighbours(self, square: Square) -> tuple[Square, ...]:
        """The corridor squares one orthogonal step from a corridor square (up, left,
        right, down)."""
        return self._neighbours.get(square, ())

    def doors_of(self, room: str) -> tuple[Door, ...]:
        """A room's doors, in board order (none for an unknown room)."""
        return self._doors_of.get(room, ())

    def rooms_entered_from(self, square: Square) -> tuple[str, ...]:
        """The rooms whose door is in front of this square (one step to enter)."""
        return self._entries.get(square, ())

    def room_at(self, square: Square) -> str | None:
        """The room a drawn square belongs to, if any."""
        for room, squares in self.room_squares.items():
            if square in squares:
                return room
        return None


def validate(board: Board) -> None:
    """Raise ValueError unless the board is consistent: squares inside the grid, doors on
    the corridor next to their room, starts on the corridor, passages paired, the
    corridor connected."""
    inside = {(c, r) for c in range(board.width) for r in range(board.height)}
    if not board.corridor <= inside:
        raise ValueError(f"{board.key}: corridor squares outside the grid")
    if len(set(board.rooms)) != len(board.rooms):
        raise ValueError(f"{board.key}: a room is listed twice")
    for room in board.rooms:
        if not board.doors_of(room) and room not in board.passages:
            raise ValueError(f"{board.key}: {room} cannot be entered")
    for door in board.doors:
        if door.room not in board.rooms:
            raise ValueError(f"{board.key}: door of unknown room {door.room}")
        if door.square not in board.corridor:
            raise ValueError(f"{board.key}: door square {door.square} is not corridor")
        shape = board.room_squares.get(door.room)
        if shape is not None and not _touches(door.square, shape):
            raise ValueError(f"{board.key}: door square {door.square} not next to {door.room}")
    for suspect, square in board.starts.items():
        if square not in board.corridor:
            raise ValueError(f"{board.key}: start of {suspect} is not corridor")
    if len(set(board.starts.values())) != len(board.starts):
        raise ValueError(f"{board.key}: two suspects share a start square")
    for room, other in board.passages.items():
        if room not in board.rooms or board.passages.get(other) != room:
            raise ValueError(f"{board.key}: passage {room} -> {other} is not paired")
    for room, shape in board.room_squares.items():
        if room not in board.rooms or shape & board.corridor or shape & board.centre:
            raise ValueError(f"{board.key}: room squares of {room} overlap")
    if not _connected(board):
        raise ValueError(f"{board.key}: the corridor is not connected")


def _touches(square: Square, shape: frozenset[Square]) -> bool:
    return any((square[0] + dc, square[1] + dr) in shape for dc, dr in _STEPS)


def _connected(board: Board) -> bool:
    if not board.corridor:
        return False
    first = min(board.corridor)
    seen = {first}
    todo = [first]
    while todo:
        for step in board.neighbours(todo.pop()):
            if step not in seen:
                seen.add(step)
                todo.append(step)
    return seen == set(board.corridor)
