"""The Liars Edition's part of the table: investigation cards, face-up cards, the play."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum
from types import MappingProxyType

from engine.cards import CardId
from engine.frozen import replace
from engine.ids import Seat
from engine.liars.cards import Action
from engine.table.state import EditionState, Table


class Stage(StrEnum):
    """Where this turn's investigation card is."""

    WINDOW = "window"  # read aloud: the others may call Liar! until `due`
    EXPOSE = "expose"  # a lie caught: the liar puts one evidence card face up
    PASSING = "passing"  # everyone with evidence passes one card to the left
    PEEK = "peek"  # the reader chooses whose two random cards to look at
    FREE_MOVE = "free_move"  # the reader may move to any room and suggest again
    DONE = "done"  # played and settled


OTHERS_ANSWER = (Stage.WINDOW, Stage.EXPOSE, Stage.PASSING)  # the card waits for the others
# The card's clocks a delivery starts (engine/clocks.py), by name, each the stage it times;
# their ref is the turn. The window's message is the read post with its Liar! button, the
# others' the caught liar's and each passer's private prompt.
LIAR_WINDOW, LIAR_EXPOSE, LIAR_PASSING = "liar_window", "liar_expose", "liar_passing"
CLOCKS = MappingProxyType(
    {LIAR_WINDOW: Stage.WINDOW, LIAR_EXPOSE: Stage.EXPOSE, LIAR_PASSING: Stage.PASSING}
)


@dataclass(frozen=True)
class Play:
    """The investigation card played this turn."""

    turn: int
    seat: Seat
    card: str  # an Action's value (truth) or "lie": private unless someone calls Liar!
    action: Action  # what the reader read aloud
    stage: Stage
    read_at: datetime
    due: datetime | None = None  # the window's, the liar's or the passers' deadline
    challenger: Seat | None = None
    passers: tuple[Seat, ...] = ()  # who must pass a card (held evidence when it began)
    by_gm: bool = False  # the turn timer ran out and the GM read it: the turn ends once settled


@dataclass(frozen=True)
class Liars(EditionState):
    """Investigation cards (each seat holds one; "" while its new one is not drawn),
    the draw and discard piles, the Interrogation Room, and cards on their way left."""

    draw: tuple[str, ...]  # top first
    held: tuple[str, ...]  # by seat
    discard: tuple[str, ...] = ()
    face_up: tuple[CardId, ...] = ()  # in the Interrogation Room, seen by everyone
    passes: tuple[tuple[Seat, CardId], ...] = ()  # chosen and out of the hands, not yet given
    play: Play | None = None
    reshuffles: int = 0

    def play_in(self, turn: int) -> Play | None:
        """The card played in `turn`, if one was."""
        return self.play if self.play is not None and self.play.turn == turn else None

    def after_pause(self, by: timedelta) -> Liars:
        """The card's timer (the window's, the liar's, the passers') moves by the pause."""
        play = self.play
        if play is None or play.due is None:
            return self
        return replace(self, play=replace(play, due=play.due + by))

    def clock_started(self, clock: str, due: datetime) -> Liars:
        """The card's stage's clock (one of `CLOCKS`) now runs until `due`."""
        if clock not in CLOCKS or self.play is None:
            return self
        return replace(self, play=replace(self.play, due=due))


def liars_of(table: Table | None) -> Liars | None:
    """The Liars Edition's part of a table (None in any other game)."""
    part = table.edition if table is not None else None
    return part if isinstance(part, Liars) else None


def liars_part(table: Table | None) -> Liars:
    """The Liars Edition's part of a table that has one."""
    part = liars_of(table)
    assert part is not None, "not a Liars Edition table"
    return part
