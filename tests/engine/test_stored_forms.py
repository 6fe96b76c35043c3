"""Stored forms of older shapes still read: a table snapshot with one slot per edition
(`y2023`, `liars`) before `Table.edition`, and deadline commands stored with
`excuse_penalties` / `excuse_penalty` before `excused` was one field on every one."""

from __future__ import annotations

import json
from typing import Any

from engine import REGISTRY
from engine import commands as cmd
from engine.codec import command_to_dict, to_dict
from engine.liars.state import Liars, liars_of
from engine.state import Game
from engine.y2023.state import Edition2023, y2023_of
from simulation.liarsplay import RandomLiars
from simulation.y2023play import RandomY2023


def _old_shape(state: Game, slot: str) -> dict[str, Any]:
    """The state as stored before `Table.edition`: the edition's part in its own slot,
    untagged, the other slot empty."""
    data = json.loads(json.dumps(to_dict(state)))
    table = data["table"]
    part = table.pop("edition")
    part.pop("kind")
    table["y2023"] = part if slot == "y2023" else None
    table["liars"] = part if slot == "liars" else None
    return dict(data)


def test_a_2023_table_stored_in_its_own_slot_reads_into_the_edition_slot() -> None:
    game = RandomY2023(seed=5, players=2)
    game.setup()
    for _ in range(30):
        game.step()
    state = game.game
    assert isinstance(y2023_of(state.table), Edition2023)
    assert REGISTRY.codec.from_dict(Game, _old_shape(state, "y2023")) == state


def test_a_liars_table_stored_in_its_own_slot_reads_into_the_edition_slot() -> None:
    game = RandomLiars(seed=3, players=4)
    game.setup()
    for _ in range(30):
        game.step()
    state = game.game
    assert isinstance(liars_of(state.table), Liars)
    assert REGISTRY.codec.from_dict(Game, _old_shape(state, "liars")) == state


def test_an_edition_part_round_trips_tagged_with_its_kind() -> None:
    game = RandomLiars(seed=4, players=3)
    game.setup()
    state = game.game
    data = json.loads(json.dumps(to_dict(state)))
    assert data["table"]["edition"]["kind"] == "Liars"
    assert REGISTRY.codec.from_dict(Game, data) == state


def test_deadline_commands_stored_with_the_former_names_of_excused_read() -> None:
    old_day = {"type": "EndDay", "actor": 0, "actor_is_admin": False, "day": 2}
    old_answer = {"type": "AnswerDeadline", "actor": 0, "actor_is_admin": False, "suggestion": 4}
    day = REGISTRY.codec.command_from_dict({**old_day, "excuse_penalties": True})
    answer = REGISTRY.codec.command_from_dict({**old_answer, "excuse_penalty": True})
    assert day == cmd.EndDay(day=2, excused=True)
    assert answer == cmd.AnswerDeadline(suggestion=4, excused=True)
    assert REGISTRY.codec.command_from_dict({**old_day, "excuse_penalties": False}) == cmd.EndDay(
        day=2
    )


def test_every_deadline_command_has_one_excused_field() -> None:
    commands: list[cmd.DeadlineCommand] = [
        cmd.EndDay(day=1, excused=True),
        cmd.AnswerDeadline(suggestion=1, excused=True),
        cmd.CloseWindow(window=1, excused=True),
        cmd.SendReminder(day=1, excused=True),
        cmd.TurnDeadline(turn=1, excused=True),
        cmd.RefuteDeadline(turn=1, excused=True),
    ]
    for command in commands:
        stored = json.loads(json.dumps(command_to_dict(command)))
        assert stored["excused"] is True and "excuse_penalties" not in stored
        assert REGISTRY.codec.command_from_dict(stored) == command
