"""The daily digest at a day's end: who used how many suggestions, who still owes an
answer, who takes a penalty into the next day, whom the GM answered for without one, who
is away, and how long the next day is."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from engine.ids import Seat
from engine.rules import may_open_day_during_window
from engine.schedule import day_end
from engine.state import Game


@dataclass(frozen=True)
class SeatDigest:
    """One active player's day: `made` of `quota` suggestions, answers still `owes`d (due
    after the day's end), suggestions fewer next time (`penalty`), answers the GM gave for
    them with no penalty (`excused`: away, or the bot was down), away `until`."""

    seat: Seat
    made: int
    quota: int
    owes: int
    penalty: int
    excused: int
    until: datetime | None


@dataclass(frozen=True)
class DayDigest:
    day: int
    seats: tuple[SeatDigest, ...]
    next_day: timedelta | None  # None: no day opens until the accusation window closes


def day_digest(game: Game, at: datetime) -> DayDigest:
    """The digest of the day that ended at `at` (the state right after it ended)."""
    today = game.today()
    seats = []
    for player in game.players:
        if not player.active:
            continue
        excused = sum(
            1
            for s in today
            if s.target == player.seat
            and s.by_gm
            and not s.penalized
            and game.settings.missed_answer_penalty > 0
        )
        seats.append(
            SeatDigest(
                seat=player.seat,
                made=game.counted_today(player.seat),
                quota=game.quota_today(player) if game.may_suggest(player) else 0,
                owes=len(game.answers_owed_by(player.seat)),
                penalty=player.pending_penalty,
                excused=excused,
                until=player.away_until if player.away_at(at) else None,
            )
        )
    settings = game.pending_settings or game.settings
    opens = may_open_day_during_window(game, at)
    return DayDigest(game.day, tuple(seats), day_end(settings, at) - at if opens else None)
