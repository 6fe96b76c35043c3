"""The classic Cluedo board (24 × 25), drawn in ASCII and checked when imported.

Legend: `.` corridor square; `1`–`6` start squares (Scarlett, Mustard, White, Green,
Peacock, Plum); an upper-case letter is a room square; the same letter in lower case is the
corridor square in front of one of that room's doors; `X` the centre (not walkable);
`#` not part of the board.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType

from engine.board.model import Board, Door, Square, validate

CLASSIC_MAP: tuple[str, ...] = (
    # 0         1         2
    # 012345678901234567890123
    "#########3####4#########",  # 0
    "KKKKKK#...BBBB...#CCCCCC",  # 1
    "KKKKKK..BBBBBBBB..CCCCCC",  # 2
    "KKKKKK..BBBBBBBB..CCCCCC",  # 3
    "KKKKKK..BBBBBBBB..CCCCCC",  # 4
    "KKKKKK.bBBBBBBBBb.cCCCC#",  # 5
    "#KKKKK..BBBBBBBB.......5",  # 6
    "....k...BBBBBBBB.......#",  # 7
    "#........b....b...IIIIII",  # 8
    "DDDDD............iIIIIII",  # 9
    "DDDDDDDD..XXXXX...IIIIII",  # 10
    "DDDDDDDD..XXXXX...IIIIII",  # 11
    "DDDDDDDDd.XXXXX...IIIIII",  # 12
    "DDDDDDDD..XXXXX.....l.i#",  # 13
    "DDDDDDDD..XXXXX...LLLLL#",  # 14
    "DDDDDDDD..XXXXX..LLLLLLL",  # 15
    "#.....d...XXXXX.lLLLLLLL",  # 16
    "2..........hh....LLLLLLL",  # 17
    "#.....o..HHHHHH...LLLLL#",  # 18
    "OOOOOOO..HHHHHH........6",  # 19
    "OOOOOOO..HHHHHHh.s.....#",  # 20
    "OOOOOOO..HHHHHH..SSSSSSS",  # 21
    "OOOOOOO..HHHHHH..SSSSSSS",  # 22
    "OOOOOOO..HHHHHH..SSSSSSS",  # 23
    "OOOOOOO1#HHHHHH#.SSSSSSS",  # 24
)

# Map letter -> room key (the classic pack's card ids).
CLASSIC_ROOMS: Mapping[str, str] = MappingProxyType(
    {
        "K": "kitchen",
        "B": "ballroom",
        "C": "conservatory",
        "D": "dining_room",
        "I": "billiard_room",
        "L": "library",
        "O": "lounge",
        "H": "hall",
        "S": "study",
    }
)
CLASSIC_SUSPECTS: tuple[str, ...] = ("scarlett", "mustard", "white", "green", "peacock", "plum")
CLASSIC_PASSAGES: tuple[tuple[str, str], ...] = (("kitchen", "study"), ("conservatory", "lounge"))


def board_from_map(
    key: str,
    rows: Sequence[str],
    rooms: Mapping[str, str],
    suspects: Sequence[str],
    passages: Sequence[tuple[str, str]],
) -> Board:
    """A board from an ASCII map in the legend above, validated."""
    width = len(rows[0])
    if any(len(row) != width for row in rows):
        raise ValueError(f"{key}: rows of unequal length")
    corridor: set[Square] = set()
    centre: set[Square] = set()
    shapes: dict[str, set[Square]] = {room: set() for room in rooms.values()}
    doors: list[Door] = []
    starts: dict[str, Square] = {}
    for r, row in enumerate(rows):
        for c, mark in enumerate(row):
            square = (c, r)
            if mark in rooms:
                shapes[rooms[mark]].add(square)
            elif mark == "X":
                centre.add(square)
            elif mark == "#":
                continue
            elif mark == ".":
                corridor.add(square)
            elif mark.isdigit() and 1 <= int(mark) <= len(suspects):
                corridor.add(square)
                starts[suspects[int(mark) - 1]] = square
            elif mark.upper() in rooms:
                corridor.add(square)
                doors.append(Door(room=rooms[mark.upper()], square=square))
            else:
                raise ValueError(f"{key}: unknown mark {mark!r} at {square}")
    if len(starts) != len(suspects):
        raise ValueError(f"{key}: {len(starts)} start squares for {len(suspects)} suspects")
    board = Board(
        key=key,
        width=width,
        height=len(rows),
        corridor=frozenset(corridor),
        rooms=tuple(rooms.values()),
        doors=tuple(doors),
        starts={suspect: starts[suspect] for suspect in suspects},
        passages={a: b for one, other in passages for a, b in ((one, other), (other, one))},
        room_squares={room: frozenset(squares) for room, squares in shapes.items()},
        centre=frozenset(centre),
    )
    validate(board)
    return board


CLASSIC: Board = board_from_map(
    "classic", CLASSIC_MAP, CLASSIC_ROOMS, CLASSIC_SUSPECTS, CLASSIC_PASSAGES
)
