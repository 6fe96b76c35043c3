"""A random classic (table) game for simulations and benchmarks: legal-looking turns, some
refused moves, silence that lets the timers fire, accusations growing likelier."""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta

from engine import commands as cmd
from engine.cards import Category
from engine.deadlines import deadlines
from engine.decide import decide_and_apply
from engine.errors import RuleError
from engine.events import Event
from engine.settings import GameFormat, RoleAssignment, Settings
from engine.state import Game, Phase
from engine.table.queries import pending_suggestion, refutation_choices, table_of, turn_options
from engine.table.setup import table_cards
from engine.table.state import Step
from simulation.randomplay import START

CLASSIC = Settings(format=GameFormat.CLASSIC)
SUSPECTS = table_cards(Category.SUSPECT)
WEAPONS = table_cards(Category.WEAPON)
ROOMS = table_cards(Category.PLACE)


@dataclass
class RandomTable:
    """Drives one classic game with random moves; records every command and event."""

    seed: int
    players: int
    settings: Settings = CLASSIC
    rng: random.Random = field(init=False)
    now: datetime = START
    state: Game | None = None
    events: list[Event] = field(default_factory=list)
    commands: list[tuple[cmd.Command, datetime]] = field(default_factory=list)
    refused: int = 0
    suspects: tuple[str, ...] = SUSPECTS  # the format's cards (an edition has its own)
    weapons: tuple[str, ...] = WEAPONS
    rooms: tuple[str, ...] = ROOMS

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    @property
    def game(self) -> Game:
        assert self.state is not None
        return self.state

    def run(self, command: cmd.Command) -> list[Event]:
        """Decide and apply; a refused command changes nothing."""
        self.commands.append((command, self.now))
        try:
            decision = decide_and_apply(self.state, command, self.now)
        except RuleError:
            self.refused += 1
            return []
        self.state = decision.after
        self.events.extend(decision.events)
        return decision.events

    def setup(self) -> None:
        settings = self.settings
        chosen = self.seed % 2 == 0
        if chosen:
            settings = settings.changed(role_assignment=RoleAssignment.CHOSEN)
        roles = list(self.suspects)
        self.rng.shuffle(roles)
        self.run(
            cmd.OpenLobby(
                actor=1, seed=self.seed, settings=settings, role=roles[0] if chosen else None
            )
        )
        for user in range(2, self.players + 1):
            self.run(cmd.JoinLobby(actor=user, role=roles[user - 1] if chosen else None))
        self.run(cmd.StartGame(actor=1))

    def step(self) -> None:
        """One move of whoever is expected to move, sometimes silence or a wrong move."""
        game = self.game
        table = table_of(game)
        roll = self.rng.random()
        if roll < 0.04 or game.paused:
            self.admin_move()
        elif roll < 0.10:
            self.advance_clock()
        elif roll < 0.13:
            self.stray_move()
        elif table.step is Step.REFUTING:
            self.refute()
        else:
            self.turn()

    def refute(self) -> None:
        game = self.game
        pending = pending_suggestion(game)
        assert pending is not None and pending.refuter is not None
        user = game.players[pending.refuter].user
        choices = refutation_choices(game, user)
        self.run(cmd.ShowCard(actor=user, card=self.rng.choice(choices)))

    def turn(self) -> None:
        """The current player's next move, chosen among the legal ones."""
        game = self.game
        user = game.players[table_of(game).current].user
        options = turn_options(game, user)
        turns = table_of(game).turn
        if options.can_accuse and self.rng.random() < min(0.002 * turns, 0.05):
            self.accuse(user)
        elif options.can_roll:
            if options.passage and self.rng.random() < 0.5:
                self.run(cmd.TakePassage(actor=user))
            elif options.can_stay and self.rng.random() < 0.7:
                self.run(cmd.StayToSuggest(actor=user))
            else:
                self.run(cmd.Roll(actor=user))
        elif options.can_draw_clue and self.rng.random() < 0.7:
            self.run(cmd.DrawClue(actor=user))
        elif options.step is Step.MOVE and options.passage and self.rng.random() < 0.3:
            self.run(cmd.TakePassage(actor=user))  # the 2023 edition: after the roll
        elif options.step is Step.MOVE and options.can_stay and self.rng.random() < 0.4:
            self.run(cmd.StayToSuggest(actor=user))
        elif options.step is Step.MOVE and (options.rooms or options.squares):
            if options.rooms and (not options.squares or self.rng.random() < 0.8):
                self.run(cmd.Move(actor=user, to=self.rng.choice(options.rooms)))
            elif options.towards and self.rng.random() < 0.7:
                self.run(cmd.Move(actor=user, to=self.rng.choice(options.towards)[1]))
            else:
                self.run(cmd.Move(actor=user, to=self.rng.choice(options.squares)))
        elif options.step is Step.MOVE and not options.can_end_turn:  # no walk: the rest
            self.run(
                cmd.TakePassage(actor=user) if options.passage else cmd.StayToSuggest(actor=user)
            )
        elif options.suggest_in is not None and self.rng.random() < 0.9:
            suspect = self.rng.choice(self.suspects)
            weapon = self.rng.choice(self.weapons)
            self.run(cmd.Suggest(actor=user, suspect=suspect, weapon=weapon))
        else:
            self.run(cmd.EndTurn(actor=user))

    def accuse(self, user: int) -> None:
        game = self.game
        assert game.envelope is not None
        if self.rng.random() < 0.3:
            suspect, weapon, place = game.envelope
        else:
            suspect = self.rng.choice(self.suspects)
            weapon = self.rng.choice(self.weapons)
            place = self.rng.choice(self.rooms)
        self.run(cmd.Accuse(actor=user, suspect=suspect, weapon=weapon, place=place))

    def stray_move(self) -> None:
        """Someone presses something out of turn, or a wrong thing (to be refused)."""
        game = self.game
        user = self.rng.choice(game.players).user
        choice = self.rng.randrange(6)
        if choice == 0:
            self.run(cmd.Roll(actor=user))
        elif choice == 1:
            self.run(cmd.Move(actor=user, to=self.rng.choice(self.rooms)))
        elif choice == 2:
            self.run(cmd.EndTurn(actor=user))
        elif choice == 3:
            self.run(cmd.ShowCard(actor=user, card=self.rng.choice(game.deck)))
        elif choice == 4:
            self.run(cmd.ReturnToTable(actor=user))
        else:
            self.run(cmd.TakePassage(actor=user))

    def admin_move(self) -> None:
        game = self.game
        admin = 1
        roll = self.rng.random()
        if game.paused:
            self.now += timedelta(minutes=self.rng.randint(1, 30))
            self.run(cmd.ResumeGame(actor=admin, actor_is_admin=True))
        elif roll < 0.3:
            self.run(cmd.PauseGame(actor=admin, actor_is_admin=True))
        elif roll < 0.4:
            self.run(cmd.LeaveGame(actor=self.rng.choice(game.players).user))
        elif roll < 0.5:
            newcomer = 1000 + len(self.events)
            victim = self.rng.choice(game.players).user
            self.run(
                cmd.ReplacePlayer(
                    actor=admin, actor_is_admin=True, player=victim, newcomer=newcomer
                )
            )

    def advance_clock(self) -> None:
        """Move time to the next deadline (sometimes late) and fire it (sometimes twice).
        Ten minutes late is a bot that was down: the deadline runs excused, as the
        scheduler runs it then (a fresh timer)."""
        pending = deadlines(self.state)
        if not pending:
            return
        due = pending[0]
        late = timedelta(seconds=self.rng.choice([0, 0, 0, 30, 600]))
        self.now = max(self.now, due.at + late)
        command = due.command
        down = late > timedelta(minutes=2)  # the bot was down: as the scheduler runs it
        if down and isinstance(command, cmd.DeadlineCommand) and command.excusable:
            command = replace(command, excused=True)
        self.run(command)
        if self.rng.random() < 0.2:
            self.run(command)

    def play(self, max_steps: int = 20_000) -> Game:
        """Play until the game ends (steps are bounded)."""
        self.setup()
        for _ in range(max_steps):
            if self.game.phase is Phase.ENDED:
                break
            self.step()
        return self.game
