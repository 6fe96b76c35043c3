"""The story of a game, told at its end: every suggestion and how it was answered (the
cards shown are public now), every accusation, and for each player the first day or turn
from which their own observations forced the envelope ("could have named it")."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from engine import events as ev
from engine.cards import CardId
from engine.ids import Seat
from engine.notebook.facts import ENVELOPE, Holding
from engine.notebook.observe import case_of
from engine.notebook.solve import solve


@dataclass
class Told:
    """A suggestion and its answer: who showed which card (None: nobody could), or who
    could not; `by_gm`: the GM answered for a silent or absent player."""

    when: int
    suggester: Seat
    cards: tuple[CardId, ...]
    target: Seat | None = None  # the forum names whom it asks
    shown_by: Seat | None = None
    card: CardId | None = None
    by_gm: bool = False
    passed: list[Seat] = field(default_factory=list)  # at the table: could not refute
    voided: bool = False


@dataclass(frozen=True)
class Accused:
    when: int
    seat: Seat
    cards: tuple[CardId, ...]
    correct: bool


@dataclass(frozen=True)
class Story:
    """What happened, in order; `named_from`: for each seat, the first day or turn its
    observations forced the whole envelope (None: never)."""

    table: bool
    entries: tuple[Told | Accused, ...]
    named_from: tuple[tuple[Seat, int | None], ...]


def story_of(events: Sequence[ev.Event]) -> Story:
    """The story of a game from its whole log."""
    table = any(isinstance(e, ev.BoardSetUp) for e in events)
    return Story(table, tuple(timeline(events)), tuple(named_from(events)))


def timeline(events: Sequence[ev.Event]) -> list[Told | Accused]:
    """Every suggestion with its answer and every judged accusation, in order."""
    entries: list[Told | Accused] = []
    told: dict[int, Told] = {}
    accused: dict[Seat, ev.AccusationMade] = {}
    for day, turn, e in dated(events):
        match e:
            case ev.SuggestionMade():
                cards = (e.suspect, e.weapon, e.place)
                told[e.suggestion] = Told(e.day, e.suggester, cards, target=e.target)
                entries.append(told[e.suggestion])
            case ev.SuggestionRefuted() if e.suggestion in told:
                t = told[e.suggestion]
                t.shown_by, t.card, t.by_gm = t.target, e.card, e.by_gm
            case ev.SuggestionNotRefuted() if e.suggestion in told:
                told[e.suggestion].by_gm = e.by_gm
            case ev.SuggestionVoided() if e.suggestion in told:
                told[e.suggestion].voided = True
            case ev.TableSuggestionMade():
                cards = (e.suspect, e.weapon, e.room)
                told[e.suggestion] = Told(e.turn, e.suggester, cards)
                entries.append(told[e.suggestion])
            case ev.CouldNotRefute() if e.suggestion in told:
                told[e.suggestion].passed.append(e.seat)
            case ev.CardShown() if e.suggestion in told:
                t = told[e.suggestion]
                t.shown_by, t.card, t.by_gm = e.seat, e.card, e.by_gm
            case ev.AccusationMade():
                accused[e.seat] = e
            case ev.AccusationJudged() if e.seat in accused:
                a = accused[e.seat]
                entries.append(Accused(day, e.seat, (a.suspect, a.weapon, a.place), e.correct))
            case ev.AccusedAtTable():
                cards = (e.suspect, e.weapon, e.place)
                entries.append(Accused(e.turn or turn, e.seat, cards, e.correct))
    return entries


def dated(events: Sequence[ev.Event]) -> Iterator[tuple[int, int, ev.Event]]:
    """Each event with the forum day and the table turn it came in (0 before the first)."""
    day = turn = 0
    for e in events:
        if isinstance(e, ev.DayOpened):
            day = e.day
        elif isinstance(e, ev.TurnStarted):
            turn = e.turn
        yield day, turn, e


def named_from(events: Sequence[ev.Event]) -> list[tuple[Seat, int | None]]:
    """For each seat, the first day or turn at whose end its facts forced the envelope.

    What a player knows only grows, so a seat whose whole log does not force it never did
    (one solve), and the first such moment is found by halving the log's day or turn
    boundaries (a few solves per player, not one per day or turn)."""
    start = next((e for e in events if isinstance(e, ev.GameStarted)), None)
    if start is None:
        return []
    ends = _moment_ends(events)
    found: list[tuple[Seat, int | None]] = []
    for seat in range(len(start.seats)):
        if not ends or not envelope_forced(events[: ends[-1][1]], seat):
            found.append((seat, None))
            continue
        low, high = 0, len(ends) - 1  # the answer is ends[i] for the first i that forces
        while low < high:
            middle = (low + high) // 2
            if envelope_forced(events[: ends[middle][1]], seat):
                high = middle
            else:
                low = middle + 1
        found.append((seat, ends[low][0]))
    return found


def _moment_ends(events: Sequence[ev.Event]) -> list[tuple[int, int]]:
    """(day or turn, the log's length at its end), for every day or turn of the game."""
    ends: list[tuple[int, int]] = []
    moment = 0
    for index, e in enumerate(events):
        begun = e.day if isinstance(e, ev.DayOpened) else None
        begun = e.turn if isinstance(e, ev.TurnStarted) else begun
        if begun is not None and begun != moment:
            if moment:
                ends.append((moment, index))
            moment = begun
    if moment:
        ends.append((moment, len(events)))
    return ends


def envelope_forced(events: Sequence[ev.Event], seat: Seat) -> bool:
    """Whether the seat's facts after the events force one card of each kind in the
    envelope (its notebook could name the whole envelope)."""
    case = case_of(events, seat)
    solution = solve(case, odds=False)
    if not solution.consistent:
        return False
    return all(
        sum(solution.forced.get(Holding(card, ENVELOPE), False) for card in category) == 1
        for category in case.categories
    )
