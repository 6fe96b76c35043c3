"""The table's setup: the classic board game's 21 cards, the tokens on their starts, the
weapons in rooms at random, and the first turn (Miss Scarlett's player starts)."""

from __future__ import annotations

import random
from datetime import datetime

from engine import events as ev
from engine.board.model import Board
from engine.cards import CLASSIC, CardId, Category, Pack
from engine.decision import Decision
from engine.state import Game
from engine.table.edition import table_edition

# The board game's cards: the first six suspects and weapons and nine places of the
# classic pack are its suspects, weapons and rooms (the names in locales/ are the same).
TABLE_CARDS = Pack(
    id="classic",
    suspects=CLASSIC.suspects[:6],
    weapons=CLASSIC.weapons[:6],
    places=CLASSIC.places[:9],
)


def table_cards(category: Category) -> tuple[CardId, ...]:
    """The classic table's cards of one category."""
    return TABLE_CARDS.cards_of(category)


def board_of(game: Game) -> Board:
    """The board a table game's tokens walk: its edition's."""
    board = table_edition(game).board
    assert board is not None and game.table is not None and game.table.board == board.key
    return board


def set_up_board(decision: Decision, rng: random.Random, now: datetime) -> None:
    """After the deal: every token of the edition's suspects on its start square of the
    edition's board, its weapons in different rooms at random (from the same seed)."""
    edition = table_edition(decision.state)
    board = edition.board
    assert board is not None, "an edition of its own geometry sets itself up"
    cards = edition.cards
    rooms = rng.sample(board.rooms, len(cards.weapons))
    decision.emit(
        ev.BoardSetUp(
            at=now,
            board=board.key,
            tokens=tuple((s, board.starts[s]) for s in cards.suspects),
            weapons=tuple(zip(cards.weapons, rooms, strict=True)),
        )
    )


def first_turn(decision: Decision, now: datetime) -> None:
    """The first turn, to the edition's first player, with the full turn time."""
    game = decision.state
    due = now + game.settings.turn_time
    seat = table_edition(game).first_seat(game)
    decision.emit(ev.TurnStarted(at=now, turn=1, seat=seat, due=due))
