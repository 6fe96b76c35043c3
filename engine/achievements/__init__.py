"""Achievements (issue 42): rules over an ended game's log, each earned once by a person.
`judge` reads a rated game and its people's tallies and returns what each person met in
it and their tallies after it; storage keeps the first time each is met (storage.achievements)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from engine.achievements.facts import Facts, facts_of
from engine.achievements.rules import ACHIEVEMENTS, BY_KEY, Achievement, Tally
from engine.computer import detective_level
from engine.events import Event, SeatReplaced
from engine.ids import UserId
from engine.standings import Finish, Standing, family, standings
from engine.state import Game

__all__ = [
    "ACHIEVEMENTS",
    "BY_KEY",
    "Achievement",
    "Facts",
    "Judged",
    "Tally",
    "facts_of",
    "judge",
    "people",
    "told_in_group",
]


@dataclass(frozen=True)
class Judged:
    """A game's achievements: (person, key) for each met, in the people's seat order and
    the list's order; and each person's tally after the game."""

    met: tuple[tuple[UserId, str], ...]
    tallies: Mapping[UserId, Tally]


def told_in_group(key: str) -> bool:
    """An achievement of one game is told in its thread; one over many games only to the
    person (a chat does not learn how someone plays elsewhere)."""
    return BY_KEY[key].game is not None


def judge(
    facts: Facts,
    tallies: Mapping[UserId, Tally],
    earned: Mapping[UserId, frozenset[str]] | None = None,
) -> Judged:
    """What the people of a rated game met in it (nothing for a game that is not rated,
    nor for computer detectives), from its facts (`facts_of`); `tallies`: theirs before it
    (absent: none yet). What a person has `earned` already is not judged again."""
    game = facts.game
    placed = people(game, facts.events)
    if not placed:
        return Judged((), {})
    after = {s.user: _next(tallies.get(s.user, Tally()), s) for s in placed}
    seat = {p.user: p.seat for p in game.players}  # who gave up their seat: series only
    met = [
        (user, a.key)
        for user, tally in sorted(after.items(), key=lambda item: seat.get(item[0], len(seat)))
        for a in _met(facts, seat.get(user), tally, (earned or {}).get(user, frozenset()))
    ]
    return Judged(tuple(met), after)


def people(game: Game, events: Sequence[Event]) -> list[Standing]:
    """The people (not the computer detectives) of a rated game, as they finished."""
    replaced = [e for e in events if isinstance(e, SeatReplaced)]
    return [s for s in standings(game, replaced) if detective_level(s.user) is None]


def _met(facts: Facts, seat: int | None, tally: Tally, earned: frozenset[str]) -> list[Achievement]:
    where = {family(facts.game), facts.game.settings.format}
    found = []
    for a in ACHIEVEMENTS:
        if a.key in earned or (a.scope is not None and not a.scope & where):
            continue
        if _meets(a, facts, seat, tally):
            found.append(a)
    return found


def _meets(a: Achievement, facts: Facts, seat: int | None, tally: Tally) -> bool:
    if a.series is not None:
        return a.series(tally)
    return a.game is not None and seat is not None and a.game(facts, seat)


def _next(tally: Tally, standing: Standing) -> Tally:
    """The tally after one more rated game."""
    won = standing.finish is Finish.WON
    return replace(
        tally,
        games=tally.games + 1,
        streak=tally.streak + 1 if won else 0,
        clean=0 if standing.wrong else tally.clean + won,
    )
