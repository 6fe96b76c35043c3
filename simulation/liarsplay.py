"""A random Liars Edition game for simulations and tests: a roll, then random moves around
the ring (or the passage, or staying), investigation cards read true or false every turn
(sometimes an End turn first, to be refused), Liar! pressed at random, silences that let
the window, the liar's, the passers' and the turn's timers fire (the GM then reads the
card), out-of-turn presses to be refused."""

from __future__ import annotations

from dataclasses import dataclass

from engine import commands as cmd
from engine.errors import RuleError
from engine.liars import commands as lcmd
from engine.liars.cards import LIARS_PACK
from engine.liars.queries import (
    LiarsOptions,
    callers,
    liars_options,
    pass_choices,
    waiting_passers,
)
from engine.liars.state import Stage, liars_of, liars_part
from engine.settings import GameFormat, Settings
from engine.table.queries import table_of
from engine.table.state import Step
from simulation.tableplay import RandomTable

LIARS = Settings(format=GameFormat.LIARS)
SUSPECTS = LIARS_PACK.suspects
WEAPONS = LIARS_PACK.weapons
ROOMS = LIARS_PACK.places


@dataclass
class RandomLiars(RandomTable):
    """Drives one Liars Edition game with random moves."""

    settings: Settings = LIARS

    def step(self) -> None:
        game = self.game
        table = table_of(game)
        assert liars_of(table) is not None
        play = liars_part(table).play_in(table.turn)
        roll = self.rng.random()
        if roll < 0.03 or game.paused:
            self.admin_move()
        elif roll < 0.09:
            self.advance_clock()
        elif roll < 0.12:
            self.stray_move()
        elif table.step is Step.REFUTING:
            self.refute()
        elif play is not None and play.stage is Stage.WINDOW:
            self.window()
        elif play is not None and play.stage is Stage.PASSING:
            self.pass_one()
        else:
            self.turn()

    def window(self) -> None:
        seats = callers(self.game)
        if seats and self.rng.random() < 0.5:
            self.run(lcmd.CallLiar(actor=self.game.players[self.rng.choice(seats)].user))
        else:
            self.advance_clock()

    def pass_one(self) -> None:
        waiting = waiting_passers(self.game)
        if not waiting:
            self.advance_clock()
            return
        user = self.game.players[self.rng.choice(waiting)].user
        try:
            choices = pass_choices(self.game, user)
        except RuleError:
            self.advance_clock()
            return
        self.run(lcmd.PassCard(actor=user, card=self.rng.choice(choices)))

    def turn(self) -> None:
        game = self.game
        user = game.players[table_of(game).current].user
        o = liars_options(game, user)
        turns = table_of(game).turn
        if o.can_accuse and self.rng.random() < min(0.002 * turns, 0.05):
            self.accuse(user)
        elif o.expose:
            self.run(lcmd.ExposeCard(actor=user, card=self.rng.choice(o.expose)))
        elif o.peek_at:
            self.run(lcmd.PeekAt(actor=user, seat=self.rng.choice(o.peek_at)))
        elif o.move_anywhere and self.rng.random() < 0.8:
            self.run(lcmd.MoveAnywhere(actor=user, room=self.rng.choice(o.move_anywhere)))
        elif o.can_roll:
            self.run(cmd.Roll(actor=user))
        elif o.step is Step.MOVE:
            self.after_rolling(user, o)
        elif o.suggest_in is not None and self.rng.random() < 0.85:
            suspect = self.rng.choice(SUSPECTS)
            weapon = self.rng.choice(WEAPONS)
            self.run(cmd.Suggest(actor=user, suspect=suspect, weapon=weapon))
        elif o.reads and self.rng.random() < 0.9:
            self.run(lcmd.PlayInvestigation(actor=user, action=self.rng.choice(o.reads).value))
        else:
            self.run(cmd.EndTurn(actor=user))  # refused while the card is owed

    def after_rolling(self, user: int, o: LiarsOptions) -> None:
        """The roll's three choices: the passage, stay, or a room within the roll."""
        if o.passage and self.rng.random() < 0.3:
            self.run(cmd.TakePassage(actor=user))
        elif o.can_stay and self.rng.random() < 0.25:
            self.run(cmd.StayToSuggest(actor=user))
        else:
            self.run(cmd.Move(actor=user, to=self.rng.choice(o.rooms)))

    def accuse(self, user: int) -> None:
        game = self.game
        assert game.envelope is not None
        if self.rng.random() < 0.3:
            suspect, weapon, place = game.envelope
        else:
            suspect = self.rng.choice(SUSPECTS)
            weapon = self.rng.choice(WEAPONS)
            place = self.rng.choice(ROOMS)
        self.run(cmd.Accuse(actor=user, suspect=suspect, weapon=weapon, place=place))

    def stray_move(self) -> None:
        """Presses out of turn or out of place (to be refused), besides the classic's."""
        game = self.game
        user = self.rng.choice(game.players).user
        choice = self.rng.randrange(5)
        if choice == 0:
            self.run(lcmd.CallLiar(actor=user))
        elif choice == 1:
            self.run(lcmd.PassCard(actor=user, card=self.rng.choice(game.deck)))
        elif choice == 2:
            self.run(lcmd.PlayInvestigation(actor=user, action="move"))
        elif choice == 3:
            self.run(lcmd.ExposeCard(actor=user, card=self.rng.choice(game.deck)))
        else:
            super().stray_move()
