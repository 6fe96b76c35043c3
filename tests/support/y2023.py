"""A 2023-edition game driven command by command (the classic driver with the edition's
settings and cards), with helpers to set its cards in rooms, clue deck and dice."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine import commands as cmd
from engine.settings import GameFormat, Settings
from engine.table.dice import roll_dice
from engine.table.queries import turn_options
from engine.y2023.cards import GLASS
from engine.y2023.state import Edition2023, y2023_part
from tests.support.classic import Classic

ROLES_2023 = ("scarlett", "mustard", "chef_white", "mayor_green", "solicitor_peacock", "plum")


def y2023(**changes: Any) -> Settings:
    return Settings(format=GameFormat.Y2023, **changes)


class Y2023Game(Classic):
    """Users 1..n in order (seat = user - 1), the edition's characters chosen in order."""

    def __init__(self, players: int = 3, *, seed: int = 7, **kwargs: Any) -> None:
        kwargs.setdefault("roles", ROLES_2023[:players])
        kwargs.setdefault("settings", y2023())
        super().__init__(players, seed=seed, **kwargs)

    @property
    def y2023(self) -> Edition2023:
        return y2023_part(self.table)

    def set_edition(self, **changes: Any) -> None:
        self._table(edition=replace(self.y2023, **changes))

    def draw(self) -> list[Any]:
        """The current player takes the clue card their glass offers."""
        return self.run(cmd.DrawClue(actor=self.current.user))

    def walk(self) -> list[Any]:
        """The current player moves to the first place offered (a room before a square)."""
        options = turn_options(self.game, self.current.user)
        return self.move(options.rooms[0] if options.rooms else options.squares[0])

    def roll_and_stay(self) -> list[Any]:
        """Every turn starts with the dice; then the current player stays where they are."""
        self.next_roll(glass=False)
        return self.roll() + self.stay()

    def roll_and_passage(self) -> list[Any]:
        """The dice, then the secret passage of the room the turn began in."""
        self.next_roll(glass=False)
        return self.roll() + self.passage()

    def first_to(self, user: int) -> None:
        """Make it `user`'s turn, at its start."""
        self._table(current=user - 1)

    def next_roll(self, *, glass: bool, at_least: int = 0) -> tuple[int, ...]:
        """Set the turn number so the next roll shows (or not) a magnifying glass."""
        turn = self.table.turn
        while True:
            dice = roll_dice(self.game.seed, turn, 2)
            if (GLASS in dice) == glass and sum(dice) >= at_least:
                self._table(turn=turn)
                return dice
            turn += 1
