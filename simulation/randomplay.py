"""A random player for simulations and benchmarks: legal-looking moves, silence, accusations."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from engine import commands as cmd
from engine.cards import Category
from engine.deadlines import deadlines
from engine.decide import decide_and_apply
from engine.errors import RuleError
from engine.events import Event
from engine.settings import Settings
from engine.state import Game, Phase

START = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


@dataclass
class RandomGame:
    """Drives one game with random moves; records every command and event."""

    seed: int
    players: int
    settings: Settings = field(default_factory=Settings)
    rng: random.Random = field(init=False)
    now: datetime = START
    state: Game | None = None
    events: list[Event] = field(default_factory=list)
    commands: list[tuple[cmd.Command, datetime]] = field(default_factory=list)
    refused: int = 0

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
        self.last_decision = decision
        self.events.extend(decision.events)
        return decision.events

    def setup(self) -> None:
        self.run(cmd.OpenLobby(actor=1, seed=self.seed, settings=self.settings))
        for user in range(2, self.players + 1):
            self.run(cmd.JoinLobby(actor=user))
        self.run(cmd.StartGame(actor=1))

    def random_cards(self) -> tuple[str, str, str]:
        game = self.game
        return (
            self.rng.choice(game.in_play(Category.SUSPECT)),
            self.rng.choice(game.in_play(Category.WEAPON)),
            self.rng.choice(game.in_play(Category.PLACE)),
        )

    def step(self) -> None:
        """One random move by a random person, or the clock moving to the next deadline."""
        game = self.game
        roll = self.rng.random()
        users = [p.user for p in game.players]
        idle = not game.pending_answers() and all(game.quota_left(p) == 0 for p in game.players)
        if idle and not game.paused and roll < 0.7:
            self.advance_clock()
        elif game.paused and roll < 0.3:
            self.now += timedelta(minutes=self.rng.randint(1, 120))
            self.run(cmd.ResumeGame(actor=1, actor_is_admin=True))
        elif roll < 0.45:
            suspect, weapon, place = self.random_cards()
            self.run(
                cmd.MakeSuggestion(
                    actor=self.rng.choice(users),
                    target=self.rng.choice(users),
                    suspect=suspect,
                    weapon=weapon,
                    place=place,
                )
            )
        elif roll < 0.75:
            self.answer_something()
        elif roll < 0.75 + 0.01 * min(game.day, 60):
            self.accuse()
        elif roll < 0.80:
            self.admin_move()
        elif roll < 0.83:
            self.presence_move()
        else:
            self.advance_clock()

    def answer_something(self) -> None:
        """A target answers a pending suggestion (sometimes wrongly, to be refused)."""
        game = self.game
        pending = game.pending_answers()
        if not pending:
            return
        s = self.rng.choice(pending)
        target = game.players[s.target]
        matches = [c for c in s.cards if c in target.hand]
        actor = target.user if self.rng.random() < 0.9 else self.rng.choice(game.players).user
        if matches and self.rng.random() < 0.95:
            self.run(cmd.Refute(actor=actor, suggestion=s.id, card=self.rng.choice(matches)))
        elif matches:
            self.run(cmd.Refute(actor=actor, suggestion=s.id, card=self.rng.choice(s.cards)))
        else:
            self.run(cmd.DeclareNoRefutation(actor=actor, suggestion=s.id))

    def accuse(self) -> None:
        game = self.game
        player = self.rng.choice(game.players)
        assert game.envelope is not None
        right = self.rng.random() < 0.15
        cards = game.envelope if right else self.random_cards()
        suspect, weapon, place = cards
        self.run(cmd.Accuse(actor=player.user, suspect=suspect, weapon=weapon, place=place))

    def presence_move(self) -> None:
        """Someone says they will be away (or asks for too long), comes back, or sets a
        standing answer (now and then naming a card they do not hold, to be refused)."""
        game = self.game
        player = self.rng.choice(game.players)
        roll = self.rng.random()
        away = [p for p in game.players if p.away_at(self.now)]
        if away and roll < 0.5:
            self.run(cmd.ComeBack(actor=self.rng.choice(away).user))
        elif roll < 0.6:
            until = self.now + timedelta(hours=self.rng.randint(1, 100))
            self.run(cmd.GoAway(actor=player.user, until=until))
        elif roll < 0.7:
            self.run(cmd.ComeBack(actor=player.user))
        else:
            order = self.rng.sample(player.hand, self.rng.randint(0, len(player.hand)))
            if self.rng.random() < 0.1:
                order.append(self.rng.choice(game.deck))
            self.run(cmd.SetStandingAnswer(actor=player.user, order=tuple(order)))

    def admin_move(self) -> None:
        game = self.game
        roll = self.rng.random()
        admin: dict[str, Any] = {"actor": 1, "actor_is_admin": True}
        if game.paused:
            self.now += timedelta(minutes=self.rng.randint(1, 120))
            self.run(cmd.ResumeGame(**admin))
        elif roll < 0.2:
            self.run(cmd.PauseGame(**admin))
        elif roll < 0.4 and game.suggestions:
            self.run(cmd.VoidSuggestion(**admin, suggestion=self.rng.choice(game.suggestions).id))
        elif roll < 0.45:
            self.run(cmd.ExtendDay(**admin, by=timedelta(hours=self.rng.randint(1, 6))))
        elif roll < 0.65:
            self.run(cmd.LeaveGame(actor=self.rng.choice(game.players).user))
        elif roll < 0.7:
            newcomer = 1000 + len(self.events)
            victim = self.rng.choice(game.players).user
            self.run(cmd.ReplacePlayer(**admin, player=victim, newcomer=newcomer))

    def advance_clock(self) -> None:
        """Move time to the next deadline (sometimes late) and fire it (sometimes twice)."""
        pending = deadlines(self.state)
        if not pending:
            return
        due = pending[0]
        late = timedelta(minutes=self.rng.choice([0, 0, 0, 5, 90]))
        self.now = max(self.now, due.at + late)
        self.run(due.command)
        if self.rng.random() < 0.1:
            self.run(due.command)

    def play(self, max_steps: int = 20_000) -> Game:
        """Play until the game ends; steps are bounded, accusations grow likelier each day."""
        self.setup()
        for _ in range(max_steps):
            if self.game.phase is Phase.ENDED:
                break
            self.step()
        return self.game
