"""A deadline the bot was too late for runs excused: the scheduler asks the command's kind
(`excusable`, a class attribute of the engine's deadline commands and any edition's own)
and sets `excused` with `dataclasses.replace`, with no branch per kind in the bot."""

from __future__ import annotations

from dataclasses import dataclass, fields

from bot.scheduler import excused
from engine import commands as cmd
from engine.codec import command_to_dict
from engine.liars import commands as lcmd

EXCUSABLE: list[cmd.DeadlineCommand] = [
    cmd.EndDay(day=3),
    cmd.AnswerDeadline(suggestion=7),
    cmd.TurnDeadline(turn=5),
    cmd.RefuteDeadline(turn=5),
    lcmd.LiarsDeadline(turn=4, stage="window"),
]
AS_THEY_ARE: list[cmd.Command] = [
    cmd.CloseWindow(window=2),
    cmd.SendReminder(day=3),
    cmd.DetectiveCue(seat=1),
    cmd.EndTurn(actor=5),
]


def test_an_excusable_deadline_runs_excused_and_otherwise_the_same() -> None:
    for command in EXCUSABLE:
        late = excused(command)
        assert type(late) is type(command)
        assert isinstance(late, cmd.DeadlineCommand) and late.excused
        others = [f.name for f in fields(command) if f.name != "excused"]
        assert [getattr(late, n) for n in others] == [getattr(command, n) for n in others]


def test_the_other_commands_run_as_they_are() -> None:
    for command in AS_THEY_ARE:
        assert excused(command) is command


@dataclass(frozen=True, kw_only=True)
class ToyDeadline(cmd.DeadlineCommand):
    """A deadline of an edition the bot has never heard of."""

    excusable = True
    round: int
    stage: str


def test_an_editions_own_deadline_is_excused_without_the_bot_knowing_it() -> None:
    assert excused(ToyDeadline(round=2, stage="vote")) == ToyDeadline(
        round=2, stage="vote", excused=True
    )


def test_excusable_is_the_kinds_not_a_stored_field() -> None:
    """`excusable` belongs to the class: never stored, never a constructor argument."""
    for command in [*EXCUSABLE, cmd.CloseWindow(window=2)]:
        assert isinstance(command, cmd.DeadlineCommand)
        assert "excusable" not in command_to_dict(command)
        assert "excusable" not in {f.name for f in fields(command)}
    assert not cmd.DeadlineCommand.excusable
