"""The 2023 edition's board: the classic board stands in for it. No square-by-square map
of the redesigned 2023 board is public, so we invent no doors: the classic geometry, its
secret passages (the kitchen and the study, the rulebook's example; the conservatory and
the lounge), and its start squares in the order of the edition's suspects (Scarlett,
Mustard, Chef White, Mayor Green, Solicitor Peacock, Plum).
"""

from __future__ import annotations

from engine.board.classic import CLASSIC_MAP, CLASSIC_ROOMS, board_from_map
from engine.board.model import Board
from engine.y2023.cards import Y2023

Y2023_PASSAGES: tuple[tuple[str, str], ...] = (("kitchen", "study"), ("conservatory", "lounge"))

Y2023_BOARD: Board = board_from_map(
    "y2023", CLASSIC_MAP, CLASSIC_ROOMS, Y2023.suspects, Y2023_PASSAGES
)
