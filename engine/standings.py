"""How a finished game's people finished, for the ratings: the winner first, then those
still in the game at the end (tied), then those who left, were removed or gave up their
seat (tied), and a wrong accusation last (tied). Which games are rated at all, the rating
family (forum or table) and pool (people alone, or with a computer detective), and whom
a computer detective's result counts for (its level) are rules too, so they live here."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import IntEnum

from engine.computer import Level, detective_level, detective_user
from engine.events import EndReason, SeatReplaced
from engine.format import format_of
from engine.ids import UserId
from engine.state import Game, Player

MIN_RATED = 3  # people (or detectives) in a game, at least, for it to be rated
RATED_ENDS = frozenset({EndReason.WON, EndReason.NO_WINNER})  # played out, not ended by an admin
FORUM, TABLE = "forum", "table"  # the rating families
PEOPLE, COMPUTERS = "people", "computers"  # the rating pools


class Finish(IntEnum):
    """How a seat's holder ended the game, best first (the value is the place given)."""

    WON = 1
    STAYED = 2  # still in the game at its end, no wrong accusation
    LEFT = 3  # left, was removed, or handed the seat over
    WRONG = 4  # a wrong accusation


@dataclass(frozen=True)
class Standing:
    """One person's (or detective's) finish in a game; `place` 1 is first, an equal place
    is a tie. `right` and `wrong`: their accusations judged so."""

    user: UserId
    finish: Finish
    right: int = 0
    wrong: int = 0

    @property
    def place(self) -> int:
        return int(self.finish)


def is_rated(game: Game) -> bool:
    """A game played out to its end (won, or nobody left to accuse); one an admin ended
    is not rated (how it would have ended is not known). `standings` also wants at least
    MIN_RATED people."""
    return game.end_reason in RATED_ENDS and game.envelope is not None


def standings(game: Game, replaced: Iterable[SeatReplaced] = ()) -> tuple[Standing, ...]:
    """Each person's finish in a rated game, best first (by user id within a place); ()
    for a game not rated. `replaced`: the game's SeatReplaced events. A seat's last holder
    takes the seat's finish; who held it before counts as having left. Someone found in
    two seats (they gave one up and took another) keeps their better finish."""
    if not is_rated(game):
        return ()
    best: dict[UserId, Standing] = {}
    for player in game.players:
        _keep(best, _standing(game, player))
    for event in replaced:
        _keep(best, Standing(event.old_user, Finish.LEFT))
    if len(best) < MIN_RATED:
        return ()
    return tuple(sorted(best.values(), key=lambda s: (s.place, s.user)))


def _standing(game: Game, player: Player) -> Standing:
    right = sum(a.seat == player.seat and a.correct is True for a in game.accusations)
    won = game.winner == player.seat
    if won:
        return Standing(player.user, Finish.WON, right=max(right, 1))
    if player.eliminated:
        return Standing(player.user, Finish.WRONG, right=right, wrong=1)
    if not player.active:
        return Standing(player.user, Finish.LEFT, right=right)
    return Standing(player.user, Finish.STAYED, right=right)


def _keep(best: dict[UserId, Standing], standing: Standing) -> None:
    known = best.get(standing.user)
    if known is None or standing.place < known.place:
        best[standing.user] = standing


def family(game: Game) -> str:
    """The rating family: the forum game (days) or a game at a table (turns)."""
    return FORUM if format_of(game).has_days else TABLE


def pool(game: Game) -> str:
    """Games a computer detective sat in are rated apart from people's games."""
    return COMPUTERS if game.computers_played else PEOPLE


def subject(user: UserId) -> UserId:
    """Whom a result counts for: the person, or a computer detective's level (every
    detective of one level is one rated subject, under its level's id with number 0)."""
    level = detective_level(user)
    return user if level is None else detective_user(0, level)


def level_of_subject(user: UserId) -> Level | None:
    """The level a subject stands for; None for a person."""
    return detective_level(user)
