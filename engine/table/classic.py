"""The classic board game at the table: the default edition (every other edition is a
subclass of `Classic` overriding what differs)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from datetime import datetime
from types import MappingProxyType

from engine import commands as cmd
from engine.board.classic import CLASSIC as CLASSIC_BOARD
from engine.board.model import Board
from engine.decision import Decision
from engine.formats import FormatSpec
from engine.lobby import deal
from engine.table import accuse, suggest, turns
from engine.table.edition import Edition, Handler
from engine.table.setup import TABLE_CARDS, first_turn, set_up_board

# The table's commands: each edition starts from these and replaces what differs.
TABLE_COMMANDS: Mapping[type[cmd.Command], Handler] = MappingProxyType(
    {
        cmd.Roll: turns.roll,
        cmd.Move: turns.move,
        cmd.TakePassage: turns.take_passage,
        cmd.StayToSuggest: turns.stay_to_suggest,
        cmd.DrawClue: turns.draw_clue,
        cmd.EndTurn: turns.end_turn,
        cmd.ReturnToTable: turns.return_to_table,
        cmd.ComeBack: turns.return_to_table,
        cmd.GoAway: turns.go_away,
        cmd.TurnDeadline: turns.turn_deadline,
        cmd.Suggest: suggest.suggest,
        cmd.ShowCard: suggest.show_card,
        cmd.RefuteDeadline: suggest.refute_deadline,
        cmd.Accuse: accuse.accuse,
    }
)


class Classic(Edition):
    """Cluedo on the classic board: 3 to 6 players, the six suspects, six weapons and nine
    rooms; one die (or two, as set); Miss Scarlett's player starts."""

    spec = FormatSpec("classic", players=(3, 6))  # the board game's table
    cards = TABLE_CARDS
    board: Board | None = CLASSIC_BOARD
    commands = TABLE_COMMANDS

    def start(self, decision: Decision, rng: random.Random, now: datetime) -> None:
        """The deal, then the board set up from the same seed, then the first turn."""
        decision.emit(deal(decision.state, now, rng))
        set_up_board(decision, rng, now)
        first_turn(decision, now)


CLASSIC = Classic()
