"""Commands: what people (and deadlines) ask the engine to do. Imperative names."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, ClassVar

from engine.board.model import Place
from engine.cards import CardId, Pack
from engine.computer import Level
from engine.ids import Seat, UserId
from engine.settings import Settings


@dataclass(frozen=True, kw_only=True)
class Command:
    """Base: `actor` is the Telegram user id (0 for the clock; a computer detective's is
    negative, engine/computer.py)."""

    actor: UserId = 0
    actor_is_admin: bool = False


@dataclass(frozen=True, kw_only=True)
class OpenLobby(Command):
    """`pack` carries the chat's own pack when the settings name the custom pack."""

    seed: int
    settings: Settings = field(default_factory=Settings)
    role: CardId | None = None
    pack: Pack | None = None


@dataclass(frozen=True, kw_only=True)
class JoinLobby(Command):
    role: CardId | None = None


@dataclass(frozen=True, kw_only=True)
class LeaveLobby(Command):
    pass


@dataclass(frozen=True, kw_only=True)
class ChooseRole(Command):
    """A character chosen in the lobby: joins with it, or changes a lobby member's choice."""

    role: CardId


@dataclass(frozen=True, kw_only=True)
class ChangeSettings(Command):
    changes: dict[str, Any]


@dataclass(frozen=True, kw_only=True)
class StartGame(Command):
    pass


@dataclass(frozen=True, kw_only=True)
class MakeSuggestion(Command):
    """`number`, when given, is the N the suggester expects ("Suggestion N"): a repeated
    press of the same button is then refused instead of making a second suggestion."""

    target: UserId
    suspect: CardId
    weapon: CardId
    place: CardId
    number: int | None = None


@dataclass(frozen=True, kw_only=True)
class Refute(Command):
    suggestion: int
    card: CardId


@dataclass(frozen=True, kw_only=True)
class DeclareNoRefutation(Command):
    suggestion: int


@dataclass(frozen=True, kw_only=True)
class Accuse(Command):
    suspect: CardId
    weapon: CardId
    place: CardId


@dataclass(frozen=True, kw_only=True)
class LeaveGame(Command):
    pass


@dataclass(frozen=True, kw_only=True)
class RemovePlayer(Command):
    player: UserId


@dataclass(frozen=True, kw_only=True)
class ReplacePlayer(Command):
    player: UserId
    newcomer: UserId


@dataclass(frozen=True, kw_only=True)
class AddDetective(Command):
    """The lobby's host (or an admin) seats a computer detective of `level`."""

    level: Level


@dataclass(frozen=True, kw_only=True)
class RemoveDetective(Command):
    """The lobby's host (or an admin) takes a computer detective out of the lobby (None:
    the one seated last)."""

    detective: UserId | None = None


@dataclass(frozen=True, kw_only=True)
class SeatDetective(Command):
    """An admin hands `player`'s seat to a new computer detective of `level`."""

    player: UserId
    level: Level


@dataclass(frozen=True, kw_only=True)
class VoidSuggestion(Command):
    suggestion: int


@dataclass(frozen=True, kw_only=True)
class PauseGame(Command):
    pass


@dataclass(frozen=True, kw_only=True)
class ResumeGame(Command):
    pass


@dataclass(frozen=True, kw_only=True)
class ExtendDay(Command):
    by: timedelta


@dataclass(frozen=True, kw_only=True)
class EndGame(Command):
    pass


@dataclass(frozen=True, kw_only=True)
class GoAway(Command):
    """The player will be away until `until`: the GM answers for them at once, with no
    penalty (a table game skips their turns)."""

    until: datetime


@dataclass(frozen=True, kw_only=True)
class ComeBack(Command):
    """An away player is back before their time is up."""


@dataclass(frozen=True, kw_only=True)
class SetStandingAnswer(Command):
    """What the GM shows for this player when it answers for them: the first of `order`
    (their own cards) that was named; empty, the GM's own order."""

    order: tuple[CardId, ...]


# --- at the table: the current player's turn, and the refuter's card ------------------


@dataclass(frozen=True, kw_only=True)
class Roll(Command):
    pass


@dataclass(frozen=True, kw_only=True)
class Move(Command):
    """To a room or a corridor square within the roll."""

    to: Place


@dataclass(frozen=True, kw_only=True)
class TakePassage(Command):
    """Instead of rolling, from a corner room to the opposite one (the 2023 edition: after
    rolling, instead of walking)."""


@dataclass(frozen=True, kw_only=True)
class StayToSuggest(Command):
    """Instead of rolling, when moved into the room by another's suggestion (the 2023
    edition: after rolling, instead of walking, from the room the turn began in)."""


@dataclass(frozen=True, kw_only=True)
class DrawClue(Command):
    """The 2023 edition: a magnifying glass was rolled and the player takes a clue card."""


@dataclass(frozen=True, kw_only=True)
class Suggest(Command):
    """In the room the player's token is in; the room is the third card."""

    suspect: CardId
    weapon: CardId


@dataclass(frozen=True, kw_only=True)
class ShowCard(Command):
    """The asked refuter's choice among their matching cards."""

    card: CardId


@dataclass(frozen=True, kw_only=True)
class EndTurn(Command):
    pass


@dataclass(frozen=True, kw_only=True)
class ReturnToTable(Command):
    """An away player is back: their turns and refutations are theirs again."""


@dataclass(frozen=True, kw_only=True)
class ClockSeen(Command):
    """The message someone must act on within a clock was delivered at `seen_at` (the
    delivery reports it): the clock `clock` ("turn", "refute", or an edition's own, such
    as the Liars Edition's "liar_window") of `ref` (the turn, or the suggestion's number)
    gets its whole span from that moment, if it still runs and was not reported before."""

    clock: str
    ref: int
    seen_at: datetime


# Deadline commands: each names the day, suggestion, window or turn it belongs to,
# so one that fires twice, late or early is a harmless no-op.

# The names `excused` had in deadline rows stored before it was one field on every one.
_OLD_EXCUSED = ("excuse_penalties", "excuse_penalty")


@dataclass(frozen=True, kw_only=True)
class DeadlineCommand(Command):
    """Base of the commands the clock runs. `excused`: the deadline ran out while the bot
    was down, so nobody is penalized for it (a missed answer costs nothing; a turn, a
    refuter or an edition's stage gets a fresh timer instead). `excusable`: the kinds
    that are run excused then (`replace(command, excused=True)`); the others run as
    they are (a window closing, a reminder, a detective's cue)."""

    excusable: ClassVar[bool] = False
    excused: bool = False

    @classmethod
    def upgrade(cls, data: dict[str, Any]) -> dict[str, Any]:
        """A stored deadline command with the former names of `excused`."""
        data = dict(data)
        for old in _OLD_EXCUSED:
            if old in data:
                data.setdefault("excused", data.pop(old))
        return data


@dataclass(frozen=True, kw_only=True)
class EndDay(DeadlineCommand):
    """Day `day` ends; excused, its overdue answers cost no penalty."""

    excusable = True
    day: int


@dataclass(frozen=True, kw_only=True)
class AnswerDeadline(DeadlineCommand):
    """The answer to suggestion `suggestion` is overdue; excused, it costs no penalty."""

    excusable = True
    suggestion: int


@dataclass(frozen=True, kw_only=True)
class CloseWindow(DeadlineCommand):
    window: int


@dataclass(frozen=True, kw_only=True)
class SendReminder(DeadlineCommand):
    """Record that the reminder before day `day` ends went out (once per day)."""

    day: int


@dataclass(frozen=True, kw_only=True)
class TurnDeadline(DeadlineCommand):
    """The turn timer of turn `turn` ran out: the turn is skipped. `excused`: it ran out
    while the bot was down, so the player gets a fresh timer instead."""

    excusable = True
    turn: int


@dataclass(frozen=True, kw_only=True)
class RefuteDeadline(DeadlineCommand):
    """The refuter of turn `turn`'s suggestion is silent: the GM shows their first match.
    `excused`: the time ran out while the bot was down, so the refuter gets a fresh timer."""

    excusable = True
    turn: int


@dataclass(frozen=True, kw_only=True)
class DetectiveCue(DeadlineCommand):
    """The detective in `seat` has let the human-like delay pass since the game last
    changed: its move is due. The engine decides nothing for it; whoever holds the game's
    record asks `engine.detectives.cued_move` for the move and runs that."""

    seat: Seat


CORE_COMMANDS: tuple[type[Command], ...] = tuple(
    kind
    for kind in list(globals().values())
    if isinstance(kind, type)
    and issubclass(kind, Command)
    and kind not in (Command, DeadlineCommand)
)
"""Every command of this module (the forum's and the table's; an edition brings its own)."""
