"""The 2023 edition's board (24 × 25): our drawing, in the classic board's legend (see
engine/board/classic.py). The rooms keep their corners; the hall and the lounge have other
doors than the classic's; secret passages join the kitchen and the study (the rulebook's
example) and the conservatory and the lounge. Start squares in the order of the edition's
suspects (Scarlett, Mustard, Chef White, Mayor Green, Solicitor Peacock, Plum).
"""

from __future__ import annotations

from engine.board.classic import CLASSIC_ROOMS, board_from_map
from engine.board.model import Board
from engine.y2023.cards import Y2023

Y2023_MAP: tuple[str, ...] = (
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
    "2..........h.....LLLLLLL",  # 17
    "#.....o..HHHHHH...LLLLL#",  # 18
    "OOOOOOO..HHHHHH........6",  # 19
    "OOOOOOOo.HHHHHHh.s.....#",  # 20
    "OOOOOOO.hHHHHHH..SSSSSSS",  # 21
    "OOOOOOO..HHHHHH..SSSSSSS",  # 22
    "OOOOOOO..HHHHHH..SSSSSSS",  # 23
    "OOOOOOO1#HHHHHH#.SSSSSSS",  # 24
)

Y2023_PASSAGES: tuple[tuple[str, str], ...] = (("kitchen", "study"), ("conservatory", "lounge"))

Y2023_BOARD: Board = board_from_map(
    "y2023", Y2023_MAP, CLASSIC_ROOMS, Y2023.suspects, Y2023_PASSAGES
)
