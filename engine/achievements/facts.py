"""What the achievements read from one ended game, in one pass over its log: for each seat
its suggestions, its answers (its own or the GM's), the cards it showed and to whom, its
secret passages and its right calls of "Liar!"; the accusations by window; and for the
winner, where in the log it accused and its last chance to accuse before."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property

from engine import events as ev
from engine.achievements.editions import ANSWERED, BY_GM, LIAR_CAUGHT, deeds_of
from engine.cards import CardId
from engine.ids import Seat
from engine.notebook.story import envelope_forced
from engine.state import Game
from engine.table.state import MoveKind


@dataclass
class SeatFacts:
    """One seat's deeds over the game."""

    suggestions: int = 0
    answered: int = 0  # answers (and the Liars' owed moves) the seat made itself
    by_gm: int = 0  # ... the GM made for it, its time out
    shown: list[tuple[Seat, CardId, bool]] = field(default_factory=list)  # to, card, standing
    passages: int = 0
    liars_caught: int = 0


@dataclass
class Facts:
    """One ended game's facts; `accused_at`: the winner's right accusation (its index in the
    log), `chance_at`: the log's length at the winner's last chance to accuse before it (the
    start of that day in the forum, the end of their previous turn at the table)."""

    game: Game
    events: Sequence[ev.Event]
    seats: dict[Seat, SeatFacts]
    windows: dict[int, set[Seat]]  # the forum's accusation windows: who accused in each
    replaced: set[Seat]  # seats handed over to someone else during the game
    accused_at: int | None = None
    accused_day: int = 0  # the forum's day of that accusation
    own_turns: int = 0  # at the table: the winner's turns up to that accusation
    chance_at: int = 0

    @cached_property
    def forced_at_accusation(self) -> bool | None:
        """Whether the winner's notebook forced the envelope when they accused (None: no
        winner). A solve of the seat's case: worked out only when a rule asks."""
        if self.accused_at is None or self.game.winner is None:
            return None
        return _forced(self.events[: self.accused_at], self.game.winner)

    @cached_property
    def forced_before(self) -> bool:
        """Whether it was forced already at the winner's last chance before."""
        winner = self.game.winner
        return winner is not None and _forced(self.events[: self.chance_at], winner)

    def settle(self) -> Facts:
        """The notebook's answers worked out now (a solve or two: slow), so that judging
        the facts later is quick; the caller runs this off the event loop."""
        if self.forced_at_accusation is not None:
            _ = self.forced_before
        return self


def _forced(events: Sequence[ev.Event], seat: Seat) -> bool:
    try:
        return envelope_forced(events, seat)
    except ValueError:  # nothing dealt yet in these events
        return False


def facts_of(game: Game, events: Sequence[ev.Event]) -> Facts:
    """The facts of an ended game from its whole log."""
    facts = Facts(game, events, {p.seat: SeatFacts() for p in game.players}, {}, set())
    targets: dict[int, tuple[Seat, Seat]] = {}  # forum suggestion -> (suggester, target)
    role = {p.role: p.seat for p in game.players}
    own = deeds_of(game.settings.format)
    day, turn_seat, day_start, turn_end = 0, -1, 0, 0
    for index, e in enumerate(events):
        match e:
            case ev.DayOpened():
                day, day_start = e.day, index
            case ev.TurnStarted():
                turn_seat = e.seat
                facts.own_turns += e.seat == game.winner and facts.accused_at is None
            case ev.TurnEnded() if e.seat == game.winner and facts.accused_at is None:
                turn_end = index + 1
            case ev.SuggestionMade():
                targets[e.suggestion] = (e.suggester, e.target)
                _seat(facts, e.suggester).suggestions += 1
            case ev.TableSuggestionMade():
                _seat(facts, e.suggester).suggestions += 1
            case ev.SuggestionRefuted() if e.suggestion in targets:
                suggester, target = targets[e.suggestion]
                _answer(facts, target, e.by_gm)
                _seat(facts, target).shown.append((suggester, e.card, e.standing))
            case ev.SuggestionNotRefuted() if e.suggestion in targets and not e.automatic:
                _answer(facts, targets[e.suggestion][1], e.by_gm)
            case ev.CardShown():
                _answer(facts, e.seat, e.by_gm)
                _seat(facts, e.seat).shown.append((turn_seat, e.card, e.standing))
            case ev.TokenMoved() if e.kind is MoveKind.PASSAGE and role.get(e.suspect) is not None:
                _seat(facts, role[e.suspect]).passages += 1
            case ev.AccusationMade():
                facts.windows.setdefault(e.window, set()).add(e.seat)
                if e.seat == game.winner:
                    facts.accused_at, facts.accused_day, facts.chance_at = index, day, day_start
            case ev.AccusedAtTable() if e.correct and e.seat == game.winner:
                facts.accused_at, facts.chance_at = index, turn_end or _dealt(events)
            case ev.SeatReplaced():
                facts.replaced.add(e.seat)
            case _:
                _edition_deed(facts, own(e))
    return facts


def _seat(facts: Facts, seat: Seat) -> SeatFacts:
    return facts.seats.setdefault(seat, SeatFacts())


def _answer(facts: Facts, seat: Seat, by_gm: bool) -> None:
    found = _seat(facts, seat)
    if by_gm:
        found.by_gm += 1
    else:
        found.answered += 1


def _edition_deed(facts: Facts, deed: tuple[Seat, str] | None) -> None:
    if deed is None:
        return
    seat, kind = deed
    if kind == LIAR_CAUGHT:
        _seat(facts, seat).liars_caught += 1
    elif kind in (ANSWERED, BY_GM):
        _answer(facts, seat, kind == BY_GM)


def _dealt(events: Sequence[ev.Event]) -> int:
    """The log's length once the cards were dealt (nothing learnt yet but one's hand)."""
    return next((i + 1 for i, e in enumerate(events) if isinstance(e, ev.GameStarted)), 0)
