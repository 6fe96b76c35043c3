"""The classic format's setup: its 21 cards, the tokens on their starts, the weapons in
rooms at random, and the first turn (Miss Scarlett's player starts)."""

from __future__ import annotations

import random
from datetime import datetime

from engine import events as ev
from engine.board import BOARDS
from engine.board import CLASSIC as CLASSIC_BOARD
from engine.board.model import Board
from engine.cards import CLASSIC, CardId, Category
from engine.decision import Decision
from engine.ids import Seat
from engine.liars.cards import LIARS_PACK
from engine.settings import GameFormat, Settings
from engine.state import Game
from engine.y2023.cards import Y2023

# The board game's cards: the first six suspects and weapons and nine places of the
# classic pack are its suspects, weapons and rooms (the names in locales/ are the same).
_TABLE_CARDS: dict[Category, tuple[CardId, ...]] = {
    Category.SUSPECT: CLASSIC.suspects[:6],
    Category.WEAPON: CLASSIC.weapons[:6],
    Category.PLACE: CLASSIC.places[:9],
}


def table_cards(category: Category, liars: bool = False) -> tuple[CardId, ...]:
    """The table's cards of one category (the classic's, or the Liars Edition's)."""
    return LIARS_PACK.cards_of(category) if liars else _TABLE_CARDS[category]


def table_suspects(settings: Settings) -> tuple[CardId, ...]:
    """The suspects a table format plays with (the roles its players may have)."""
    if settings.format is GameFormat.Y2023:
        return Y2023.suspects
    return table_cards(Category.SUSPECT, settings.liars)


def board_of(game: Game) -> Board:
    assert game.table is not None
    return BOARDS[game.table.board]


def first_seat(game: Game) -> Seat:
    """Miss Scarlett's player; with nobody as her, the next suspect in the classic order
    who is played."""
    by_role = {p.role: p.seat for p in game.players}
    return next(by_role[s] for s in table_cards(Category.SUSPECT) if s in by_role)


def set_up_table(decision: Decision, rng: random.Random, now: datetime) -> None:
    """After the deal: the board set up from the same seed, then the first turn."""
    if decision.state.settings.liars:
        from engine.liars.turns import set_up_liars  # the edition builds on this module

        set_up_liars(decision, rng, now)
        return
    board = CLASSIC_BOARD
    suspects = table_cards(Category.SUSPECT)
    weapons = table_cards(Category.WEAPON)
    rooms = rng.sample(board.rooms, len(weapons))
    decision.emit(
        ev.BoardSetUp(
            at=now,
            board=board.key,
            tokens=tuple((s, board.starts[s]) for s in suspects),
            weapons=tuple(zip(weapons, rooms, strict=True)),
        )
    )
    game = decision.state
    due = now + game.settings.turn_time
    decision.emit(ev.TurnStarted(at=now, turn=1, seat=first_seat(game), due=due))
