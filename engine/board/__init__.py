"""The board of table mode: squares, rooms, doors, passages, and how tokens move on it."""

from engine.board.classic import CLASSIC
from engine.board.model import Board, Door, Place, Square
from engine.board.movement import Reach, nearest_room, occupied, reachable, towards

__all__ = [
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
