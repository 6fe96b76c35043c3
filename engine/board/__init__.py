"""The board of table mode: squares, rooms, doors, passages, and how tokens move on it."""

from engine.board.classic import CLASSIC
from engine.board.model import Board, Door, Place, Square
from engine.board.movement import Reach, nearest_room, occupied, reachable, towards
from engine.y2023.board import Y2023_BOARD

BOARDS: dict[str, Board] = {CLASSIC.key: CLASSIC, Y2023_BOARD.key: Y2023_BOARD}

__all__ = [
    "BOARDS",
    "CLASSIC",
    "Board",
    "Door",
    "Place",
    "Reach",
    "Square",
    "nearest_room",
    "occupied",
    "reachable",
    "towards",
]
