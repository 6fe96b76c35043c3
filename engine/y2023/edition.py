"""The 2023 edition as an edition of the table (a `Classic` with its own cards, board,
dice, set-up and room rules; see rules.py)."""

from __future__ import annotations

import random
from datetime import datetime

from engine.decision import Decision
from engine.formats import TABLE_SETTINGS, FormatSpec
from engine.ids import Seat
from engine.notebook.facts import Owner
from engine.state import Game
from engine.table.classic import Classic
from engine.table.state import Step, Table
from engine.y2023 import rules
from engine.y2023.board import Y2023_BOARD
from engine.y2023.cards import Y2023, Y2023_PLAYERS
from engine.y2023.errors import Y2023_ERRORS
from engine.y2023.evolve import Y2023_FOLDS
from engine.y2023.notebook import y2023_sizes
from engine.y2023.setup import start_2023

# The table's settings but the dice (always two) and the roles (always chosen).
Y2023_SETTINGS = tuple(name for name in TABLE_SETTINGS if name not in ("dice", "role_assignment"))


class Y2023Edition(Classic):
    """Clue (2023): two dice every turn, clue cards for a magnifying glass, cards face down
    in rooms (two players), accusations after the move, from a room; players always choose
    a character ("Ĉiu ludanto elektas rolulon"; whoever has not chosen gets a random one)."""

    spec = FormatSpec(
        "y2023", players=Y2023_PLAYERS, pack=Y2023, roles_chosen=True, settings=Y2023_SETTINGS
    )
    cards = Y2023
    board = Y2023_BOARD
    aliases = ("2023",)
    events = Y2023_FOLDS
    errors = (*Classic.errors, *Y2023_ERRORS)
    instead_of_walking = Step.MOVE  # every turn begins with the dice
    exact_roll = False  # "Vi ne devas uzi vian plenan" (roll): up to the roll, "ĝis dek spacoj"

    def start(self, decision: Decision, rng: random.Random, now: datetime) -> None:
        start_2023(decision, rng, now)

    def dice(self, game: Game) -> int:
        return 2  # "la du ĵetkubojn", whatever the dice setting

    def notebook_sizes(self, game: Game) -> tuple[tuple[Owner, int], ...]:
        return y2023_sizes(game)

    def may_stay(self, game: Game, seat: Seat) -> bool:
        return rules.may_stay(game, seat)

    def after_entering(self, decision: Decision, seat: Seat, now: datetime) -> None:
        rules.after_entering(decision, seat, now)

    def may_draw_clue(self, table: Table) -> bool:
        return rules.may_draw_clue(table)

    def draw_clue(self, decision: Decision, seat: Seat, now: datetime) -> None:
        rules.draw_clue(decision, seat, now)

    def require_accusing_moment(self, game: Game, seat: Seat) -> None:
        rules.require_moved_into_room(game, seat)


Y2023_EDITION = Y2023Edition()
