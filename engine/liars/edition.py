"""The Liars Edition as an edition of the table (a `Classic` with its own cards, ring of
rooms, set-up, moves, turn end, the investigation card's commands, events and clocks)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from datetime import datetime
from types import MappingProxyType

from engine import commands as cmd
from engine.commands import DeadlineCommand
from engine.decision import Decision
from engine.format import Clock
from engine.formats import TABLE_SETTINGS, FormatSpec
from engine.ids import Seat
from engine.liars import clock, play, turns
from engine.liars import commands as lcmd
from engine.liars.cards import LIARS_PACK
from engine.liars.checks import current_play
from engine.liars.errors import LIARS_ERRORS
from engine.liars.evolve import LIARS_FOLDS
from engine.liars.notebook import liars_sizes
from engine.liars.state import CLOCKS, Stage, liars_of
from engine.lobby import deal
from engine.notebook.facts import Owner
from engine.state import Game
from engine.table.classic import TABLE_COMMANDS, Classic
from engine.table.edition import Handler
from engine.table.state import Step

# The Liars Edition's commands: the table's, with its own moves, turn end, accusation
# and turn timer, and the investigation card's.
LIARS_TABLE: Mapping[type[cmd.Command], Handler] = MappingProxyType(
    {
        **TABLE_COMMANDS,
        cmd.Move: turns.move,
        cmd.TakePassage: turns.take_passage,
        cmd.StayToSuggest: turns.stay,
        cmd.EndTurn: turns.end_turn,
        cmd.TurnDeadline: clock.turn_deadline,
        cmd.Accuse: turns.accuse,
        lcmd.PlayInvestigation: play.play_investigation,
        lcmd.CallLiar: play.call_liar,
        lcmd.ExposeCard: play.expose_card,
        lcmd.PassCard: play.pass_card,
        lcmd.PeekAt: play.peek_at,
        lcmd.MoveAnywhere: play.move_anywhere,
        lcmd.LiarsDeadline: clock.liars_deadline,
    }
)

# The table's settings and the investigation deck's and the Liar! window's.
LIARS_SETTINGS = (
    *TABLE_SETTINGS,
    "truth_move_cards",
    "truth_pass_cards",
    "truth_peek_cards",
    "lie_cards",
    "liar_window",
)


class LiarsEdition(Classic):
    """Clue: Liars Edition (2020): 3 to 6 players (the rulebook gives no count: six
    characters, dealt as the classic), a ring of rooms, investigation cards and Liar!"""

    spec = FormatSpec("liars", players=(3, 6), pack=LIARS_PACK, settings=LIARS_SETTINGS)
    cards = LIARS_PACK
    board = None  # the ring of rooms (engine/liars/cards.py), not a board of squares
    commands = LIARS_TABLE
    events = LIARS_FOLDS
    errors = (*Classic.errors, *LIARS_ERRORS)
    instead_of_walking = Step.MOVE  # the passage and staying come after the roll

    def start(self, decision: Decision, rng: random.Random, now: datetime) -> None:
        """The deal, then every token in its room and the investigation cards dealt."""
        decision.emit(deal(decision.state, now, rng))
        turns.set_up_liars(decision, rng, now)

    def on_leaving(self, decision: Decision, seat: Seat, now: datetime) -> None:
        clock.settle_for_leaver(decision, seat, now)

    def notebook_sizes(self, game: Game) -> tuple[tuple[Owner, int], ...]:
        return liars_sizes(game)

    def turn_clock_stopped(self, game: Game) -> bool:
        """While the others answer an investigation card (Liar!, a card face up, passes)."""
        play_now = current_play(game)
        return play_now is not None and play_now.due is not None

    def clock(self, game: Game, name: str, ref: int) -> Clock | None:
        """The card's clocks besides the table's: the Liar! window (while nobody has
        called), the caught liar's time and the passers' (`CLOCKS`), of the turn `ref`."""
        stage = CLOCKS.get(name)
        if stage is None:
            return super().clock(game, name, ref)
        play_now = current_play(game)
        if play_now is None or play_now.turn != ref or play_now.stage is not stage:
            return None
        if play_now.due is None or (stage is Stage.WINDOW and play_now.challenger is not None):
            return None
        settings = game.settings
        return Clock(
            play_now.due, settings.liar_window if stage is Stage.WINDOW else settings.refute_time
        )

    def deadline_clock(self, game: Game, command: DeadlineCommand) -> tuple[str, int] | None:
        """The stage's deadline is its clock's: the window's, the liar's, the passers'."""
        if not isinstance(command, lcmd.LiarsDeadline):
            return None
        name = next((n for n, stage in CLOCKS.items() if stage.value == command.stage), None)
        return (name, command.turn) if name is not None else None

    def deadlines(self, game: Game) -> list[tuple[str, DeadlineCommand]]:
        """The card's stage's deadline (the window, the liar, the passers)."""
        table = game.table
        assert table is not None
        play_now = current_play(game)
        if play_now is None:
            return []
        stage = play_now.stage.value
        return [(f"liars:{table.turn}:{stage}", lcmd.LiarsDeadline(turn=table.turn, stage=stage))]

    def due_at(self, game: Game, command: DeadlineCommand) -> datetime | None:
        table = game.table
        liars = liars_of(table)
        if not isinstance(command, lcmd.LiarsDeadline) or table is None or liars is None:
            return None
        if table.turn != command.turn:
            return None
        play_then = liars.play_in(command.turn)
        if play_then is None or play_then.stage.value != command.stage:
            return None
        return play_then.due


LIARS_EDITION = LiarsEdition()
