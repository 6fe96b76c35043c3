"""For each rule error of the classic format, a situation and the move refused with it."""

from __future__ import annotations

from collections.abc import Callable

from engine import commands as cmd
from engine.settings import Settings
from engine.table.queries import turn_options
from engine.table.state import Step
from tests.support.classic import Classic
from tests.support.y2023 import Y2023Game

ROLES = ("scarlett", "mustard", "white")
KITCHEN_DOOR = (4, 7)


def _game() -> Classic:
    return Classic(3, roles=ROLES)


def _refuting() -> Classic:
    """Scarlett has suggested in the hall and a refuter is asked (seed chosen so)."""
    for seed in range(50):
        game = Classic(3, roles=ROLES, seed=seed)
        game.put("scarlett", "hall")
        game._table(step=Step.MOVED, entered=True)
        game.suggest("plum", "rope")
        if game.table.step is Step.REFUTING:
            return game
    raise AssertionError("no seed with a refuter asked")


def table_scenario(code: str) -> Callable[[], object] | None:
    """The refused move for `code`, or None if the code is not the classic format's."""
    g = _game()
    if code == "wrong_format":
        forum = Classic(3, settings=Settings())
        return lambda: forum.run(cmd.Roll(actor=1))
    if code == "not_your_turn":
        return lambda: g.run(cmd.Roll(actor=2))
    if code == "already_rolled":
        g.roll()
        return lambda: g.roll()
    if code == "already_moved":
        g.put("scarlett", "kitchen")
        g.passage()
        return lambda: g.roll()
    if code == "must_roll_first":
        return lambda: g.move((7, 23))
    if code == "out_of_reach":
        g.rolled(1)
        return lambda: g.move("study")
    if code == "no_secret_passage":
        return lambda: g.passage()
    if code == "cannot_stay":
        g.put("scarlett", "hall")
        return lambda: g.stay()
    if code == "not_in_room":
        g.rolled(1)
        g.move((7, 23))
        return lambda: g.suggest("plum", "rope")
    if code == "must_enter_room":
        g.put("scarlett", "hall")
        return lambda: g.suggest("plum", "rope")
    if code == "already_suggested":
        r = _refuting()
        return lambda: r.suggest("plum", "rope")
    if code == "must_move":
        return lambda: g.end()
    if code == "refutation_pending":
        r = _refuting()
        return lambda: r.end()
    if code == "not_your_refutation":
        return lambda: g.show(2, "rope")
    if code == "not_away":
        return lambda: g.run(cmd.ReturnToTable(actor=2))
    if code == "room_in_reach":  # on the Kitchen's door square, every neighbour taken
        g.put("scarlett", KITCHEN_DOOR)
        for token, square in zip(
            ("mustard", "white", "green"), ((3, 7), (5, 7), (4, 8)), strict=True
        ):
            g.put(token, square)
        g.rolled(3)
        return lambda: g.end()
    if code == "accuse_outside_room":  # the 2023 edition: moved, onto a corridor square
        y = Y2023Game(3)
        y.first_to(1)
        y.next_roll(glass=False)
        y.roll()
        y.move(turn_options(y.game, 1).squares[0])
        return lambda: y.accuse(y.envelope)
    if code == "accuse_after_moving":  # the 2023 edition: before the roll
        y = Y2023Game(3)
        y.first_to(1)
        return lambda: y.accuse(y.envelope)
    if code == "no_clue_card":  # the 2023 edition: no glass on the dice
        y = Y2023Game(3)
        y.first_to(1)
        y.next_roll(glass=False)
        y.roll()
        return lambda: y.run(cmd.DrawClue(actor=1))
    return None
