"""The edition interface: everything the table core asks of the edition a game is played
in, with the classic rules as the defaults.

An edition (engine/table/classic.py, engine/liars/, engine/y2023/, or a new package) is a
subclass overriding what differs: its cards, board and player range (`spec`), the set-up,
the dice, when the passage and staying are chosen, what happens on entering a room, when
and where one may accuse, what leaving settles, its own clocks (and which of them a delivery
starts: `clock`), its own commands (command type -> handler) and events (event type ->
fold). What its own events show each player's notebook and how a computer detective
plays it are not its rules: they are tables keyed by the format's key, on the notebook's
side (engine/notebook/observers.py) and the detectives' (engine/detectives/plays.py), which
import the edition packages; the rules import neither. An edition is a format
(engine/format.py `Format`): it answers what the shared rules ask of a game's format with
the table's answers. The table core finds a game's edition here (`table_edition`);
engine/editions.py, the shipped registry, is the one module that imports the edition
packages.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

from engine.board.model import Board
from engine.cards import CATEGORY_ORDER, CardId, Category, Pack
from engine.commands import Command, DeadlineCommand, RefuteDeadline, TurnDeadline
from engine.decision import Decision
from engine.errors import RoleNotASuspect, RuleError, WrongFormat
from engine.format import Clock, Format, format_of
from engine.ids import Seat
from engine.state import Game
from engine.table.dice import roll_dice
from engine.table.errors import TABLE_ERRORS, NoClueCard
from engine.table.state import REFUTE_CLOCK, TURN_CLOCK, Step, Table, TableSuggestion

Handler = Callable[[Game | None, Any, datetime], Decision]
Fold = Callable[[Any, Any], Game]


class Edition(Format):
    """A table edition's rules; the defaults are the classic board game's."""

    cards: Pack  # the cards at its table: all dealt (the envelope aside); suspects are roles
    board: Board | None = None  # the board its tokens walk (None: its own geometry)
    aliases: tuple[str, ...] = ()  # other keys people may type for it (ASCII, any language)
    commands: Mapping[type[Command], Handler] = {}  # its commands, by type
    errors = (*Format.errors, *TABLE_ERRORS)  # the shared kinds and the table's
    # The step at which the passage and staying are chosen instead of walking: before the
    # roll (classic), or after it (the 2023 and Liars editions: every turn starts rolling).
    instead_of_walking: Step = Step.ROLL
    # The corridor walk is exactly the roll (classic: "the number shown"); False: up to it.
    exact_roll: bool = True

    # --- the format's answers (engine/format.py) ------------------------------------
    def plays_turns(self, game: Game) -> bool:
        return game.table is not None

    def moment(self, game: Game) -> int:
        return game.table.turn if game.table is not None else game.day

    def table_suggestions(self, game: Game) -> tuple[TableSuggestion, ...]:
        return game.table.suggestions if game.table is not None else ()

    def timers(self, game: Game) -> list[tuple[str, DeadlineCommand]]:
        """The turn's and the refuter's clocks, then the edition's own."""
        if game.table is None:
            return []
        turn = game.table.turn
        table: list[tuple[str, DeadlineCommand]] = [
            (f"turn:{turn}", TurnDeadline(turn=turn)),
            (f"refute:{turn}", RefuteDeadline(turn=turn)),
        ]
        return table + self.deadlines(game)

    def timer_due(self, game: Game, command: DeadlineCommand) -> datetime | None:
        table = game.table
        match command:
            case TurnDeadline(turn=turn):
                if table is None or table.turn != turn or table.step is Step.REFUTING:
                    return None  # the turn's clock stands still while refuters answer
                if self.turn_clock_stopped(game):
                    return None  # ... and while the edition waits on the others
                return table.due
            case RefuteDeadline(turn=turn):
                pending = table.pending if table is not None else None
                return pending.due if table and pending and table.turn == turn else None
        return self.due_at(game, command) if table is not None else None

    def unseen_clock(self, game: Game, command: DeadlineCommand) -> tuple[str, int] | None:
        table = game.table
        if table is None:
            return None
        found: tuple[str, int] | None
        match command:
            case TurnDeadline(turn=turn):
                found = (TURN_CLOCK, turn)
            case RefuteDeadline(turn=turn):
                pending = table.pending
                found = (REFUTE_CLOCK, pending.number) if pending and table.turn == turn else None
            case _:
                found = self.deadline_clock(game, command)
        return found if found not in table.clocks_seen else None

    def fresh_clock(self, game: Game, name: str, ref: int) -> Clock | None:
        table = game.table
        if table is None or (name, ref) in table.clocks_seen:
            return None
        return self.clock(game, name, ref)

    # --- set-up --------------------------------------------------------------------
    def start(self, decision: Decision, rng: random.Random, now: datetime) -> None:
        """Deal, set the table up from the game's seed, and start the first turn."""
        raise NotImplementedError

    def first_seat(self, game: Game) -> Seat:
        """Who plays first: the first suspect of the edition's order who is played (Miss
        Scarlett's player)."""
        by_role = {p.role: p.seat for p in game.players}
        return next(by_role[s] for s in self.cards.suspects if s in by_role)

    def suspects(self) -> tuple[CardId, ...]:
        """The roles its players may have."""
        return self.cards.suspects

    def roles(self, game: Game) -> tuple[CardId, ...]:
        return self.suspects()

    def require_roles_in_play(self, game: Game) -> None:
        for entry in game.lobby:
            if entry.role is not None and entry.role not in self.suspects():
                raise RoleNotASuspect(card=entry.role)

    def drawn_cards(self, game: Game, rng: random.Random) -> dict[Category, list[CardId]]:
        """All its cards."""
        return {category: list(self.cards.cards_of(category)) for category in CATEGORY_ORDER}

    # --- dice and movement ----------------------------------------------------------
    def dice(self, game: Game) -> int:
        """How many dice a turn rolls: one or two, as the settings say."""
        return game.settings.dice

    def roll(self, game: Game, turn: int) -> tuple[int, ...]:
        """The turn's six-sided dice."""
        return roll_dice(game.seed, turn, self.dice(game))

    def may_stay(self, game: Game, seat: Seat) -> bool:
        """Moved into a room by another's suggestion since the last turn, and still there."""
        table = _table(game)
        here = table.place_of(game.players[seat].role)
        facts = table.seats[seat]
        return facts.moved_in and isinstance(here, str) and here != facts.suggested_in

    # --- entering a room --------------------------------------------------------------
    def after_entering(self, decision: Decision, seat: Seat, now: datetime) -> None:
        """What entering (or staying in) a room brings besides the suggestion: nothing."""

    def may_draw_clue(self, table: Table) -> bool:
        """Whether the current player may draw a clue card now (no clue cards here)."""
        return False

    def draw_clue(self, decision: Decision, seat: Seat, now: datetime) -> None:
        """The clue card drawn and read (NoClueCard where there are none)."""
        raise NoClueCard()

    # --- accusing ---------------------------------------------------------------------
    def require_accusing_moment(self, game: Game, seat: Seat) -> None:
        """When and where the player may accuse: anywhere, at any step of their turn."""

    def may_accuse_now(self, game: Game, seat: Seat) -> bool:
        try:
            self.require_accusing_moment(game, seat)
        except RuleError:
            return False
        return True

    # --- leaving ----------------------------------------------------------------------
    def on_leaving(self, decision: Decision, seat: Seat, now: datetime) -> None:
        """What a player's leaving settles besides the table's own (the GM's refutation,
        the token off the corridor, the turn): nothing."""

    # --- clocks and deadlines ---------------------------------------------------------
    def turn_clock_stopped(self, game: Game) -> bool:
        """The turn's clock stands still while the edition waits on the others."""
        return False

    def clock(self, game: Game, name: str, ref: int) -> Clock | None:
        """The clock `name` of `ref` while it is the one pending (None: stale, or not a
        clock of this edition): the table's "turn" (ref: the turn) and "refute" (ref: the
        suggestion's number). An edition with clocks of its own answers for them and
        leaves the rest to this (its `EditionState.clock_started` folds the new due)."""
        table = _table(game)
        if name == TURN_CLOCK and table.turn == ref and table.due is not None:
            stopped = table.step is Step.REFUTING or self.turn_clock_stopped(game)
            return Clock(table.due, game.settings.turn_time, stopped=stopped)
        pending = table.pending
        if name != REFUTE_CLOCK or pending is None or pending.number != ref:
            return None
        if pending.refuter is None or pending.due is None:
            return None
        return Clock(pending.due, game.settings.refute_time)

    def deadline_clock(self, game: Game, command: DeadlineCommand) -> tuple[str, int] | None:
        """Which of the edition's own clocks (`clock`) runs out at one of its deadline
        commands, as (name, ref); None: none (the table's own are the core's)."""
        return None

    def deadlines(self, game: Game) -> list[tuple[str, DeadlineCommand]]:
        """The edition's own pending deadlines (key, command)."""
        return []

    def due_at(self, game: Game, command: DeadlineCommand) -> datetime | None:
        """When one of the edition's own deadline commands falls due (None: not pending)."""
        return None


def _table(game: Game) -> Table:
    assert game.table is not None
    return game.table


def table_edition(game: Game) -> Edition:
    """The edition of a table game (a forum game's table commands are of the wrong format)."""
    found = format_of(game)
    if not isinstance(found, Edition):
        raise WrongFormat()
    return found
