"""A classic (table) game driven command by command, with a clock and position helpers."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from itertools import product
from typing import Any

from engine import commands as cmd
from engine.board.model import Place
from engine.cards import CardId, Category
from engine.deadlines import deadlines
from engine.decide import decide_and_apply
from engine.events import Event
from engine.settings import Settings
from engine.state import Game, Player
from engine.table.setup import table_cards
from engine.table.state import Step, Table

T0 = datetime(2026, 3, 1, 19, 0, tzinfo=UTC)
ROLES = ("scarlett", "mustard", "white", "green", "peacock", "plum")


def classic(**changes: Any) -> Settings:
    return Settings(format="classic", **changes)


class Classic:
    """Users 1..n join in order (seat = user - 1); roles chosen when given."""

    def __init__(
        self,
        players: int = 3,
        *,
        roles: tuple[str, ...] | None = None,
        seed: int = 7,
        settings: Settings | None = None,
        start: bool = True,
    ) -> None:
        self.now = T0
        self.state: Game | None = None
        self.events: list[Event] = []
        base = settings or classic()
        if roles is not None:
            base = base.changed(role_assignment="chosen")
        role = roles[0] if roles else None
        self.run(cmd.OpenLobby(actor=1, seed=seed, settings=base, role=role))
        for user in range(2, players + 1):
            self.run(cmd.JoinLobby(actor=user, role=roles[user - 1] if roles else None))
        if start:
            self.run(cmd.StartGame(actor=1))

    def run(self, command: cmd.Command) -> list[Event]:
        decision = decide_and_apply(self.state, command, self.now)
        self.state = decision.after
        self.events.extend(decision.events)
        return decision.events

    @property
    def game(self) -> Game:
        assert self.state is not None
        return self.state

    @property
    def table(self) -> Table:
        assert self.game.table is not None
        return self.game.table

    # --- who ----------------------------------------------------------------------------
    @property
    def current(self) -> Player:
        return self.game.players[self.table.current]

    def user_of(self, role: str) -> int:
        return next(p.user for p in self.game.players if p.role == role)

    def hand(self, user: int) -> tuple[CardId, ...]:
        player = self.game.player_of(user)
        assert player is not None
        return player.hand

    # --- the current player's moves -------------------------------------------------------
    def roll(self) -> list[Event]:
        return self.run(cmd.Roll(actor=self.current.user))

    def move(self, to: Place) -> list[Event]:
        return self.run(cmd.Move(actor=self.current.user, to=to))

    def passage(self) -> list[Event]:
        return self.run(cmd.TakePassage(actor=self.current.user))

    def stay(self) -> list[Event]:
        return self.run(cmd.StayToSuggest(actor=self.current.user))

    def suggest(self, suspect: str, weapon: str) -> list[Event]:
        return self.run(cmd.Suggest(actor=self.current.user, suspect=suspect, weapon=weapon))

    def show(self, user: int, card: str) -> list[Event]:
        return self.run(cmd.ShowCard(actor=user, card=card))

    def end(self) -> list[Event]:
        return self.run(cmd.EndTurn(actor=self.current.user))

    def accuse(self, cards: tuple[str, str, str], user: int | None = None) -> list[Event]:
        suspect, weapon, place = cards
        actor = self.current.user if user is None else user
        return self.run(cmd.Accuse(actor=actor, suspect=suspect, weapon=weapon, place=place))

    @property
    def envelope(self) -> tuple[str, str, str]:
        assert self.game.envelope is not None
        return self.game.envelope

    def wrong(self) -> tuple[str, str, str]:
        """An accusation that is wrong (the envelope with another room)."""
        suspect, weapon, room = self.envelope
        other = next(r for r in ("kitchen", "ballroom") if r != room)
        return (suspect, weapon, other)

    # --- the clock -------------------------------------------------------------------------
    def wait(self, delta: timedelta) -> None:
        self.now += delta

    def fire_due(self) -> list[Event]:
        """Move the clock to the earliest deadline and run it."""
        due = deadlines(self.state)[0]
        self.now = max(self.now, due.at)
        return self.run(due.command)

    # --- positions (tests set the board up directly: state is data) ------------------------
    def put(self, suspect: str, place: Place) -> None:
        tokens = tuple((s, place if s == suspect else p) for s, p in self.table.tokens)
        self._table(tokens=tokens)

    def rolled(self, total: int) -> None:
        """As if the current player had rolled `total` (one die's worth per six)."""
        self._table(step=Step.MOVE, dice=(total,))

    def seat_facts(self, seat: int, **changes: Any) -> None:
        seats = list(self.table.seats)
        seats[seat] = replace(seats[seat], **changes)
        self._table(seats=tuple(seats))

    def _table(self, **changes: Any) -> None:
        self.state = replace(self.game, table=replace(self.table, **changes))


def suggest_to(game: Classic, refuter: int) -> tuple[str, str, str]:
    """The current player suggests cards only `refuter` (a seat) holds some of."""
    players = game.game.players
    others = [p for p in players if p.seat not in (game.table.current, refuter)]
    named = next(
        c
        for c in product(
            *(table_cards(k) for k in (Category.SUSPECT, Category.WEAPON)),
            table_cards(Category.PLACE),
        )
        if set(c) & set(players[refuter].hand) and not any(set(c) & set(p.hand) for p in others)
    )
    game.put(game.current.role, named[2])
    game._table(step=Step.MOVED, entered=True)
    game.suggest(named[0], named[1])
    suspect, weapon, place = named
    return suspect, weapon, place
