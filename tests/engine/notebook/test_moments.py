"""When a notebook forced the envelope against when its holder accused, in a small forum
game built event by event: Alice learns Bob's three cards on day 1 and Carol's on days 2
and 3 (so her notebook names the envelope at the end of day 3), and accuses on day 4; Bob
guesses wrong on day 2; Carol's seat changes hands and her notebook never gets there."""

from __future__ import annotations

from datetime import timedelta

from engine import events as ev
from engine.notebook.moments import Moments, moments_of
from engine.settings import Settings
from tests.engine.notebook.test_observe_scenes import (
    ALICE,
    BOB,
    CAROL,
    FORUM_DECK,
    T0,
    dealt,
)

ENVELOPE = ("white", "candlestick", "lounge")
HANDS = (
    ("scarlett", "rope", "kitchen"),
    ("mustard", "dagger", "ballroom"),
    ("library", "hall", "study"),
)


def _day(day: int) -> ev.DayOpened:
    return ev.DayOpened(at=T0 + timedelta(days=day), day=day, ends_at=T0 + timedelta(days=day + 1))


def _asks(number: int, day: int, to: int, place: str, shown: str) -> list[ev.Event]:
    """Alice asks about Scarlett and the Rope (her own) and a place; `shown` comes back."""
    at = T0 + timedelta(days=day)
    suspect, weapon = ("mustard", "rope") if shown == "mustard" else ("scarlett", "rope")
    if shown == "dagger":
        weapon = "dagger"
    return [
        ev.SuggestionMade(
            at=at,
            suggestion=number,
            day=day,
            number=1,
            suggester=ALICE,
            target=to,
            suspect=suspect,
            weapon=weapon,
            place=place,
            answer_due=at + timedelta(hours=12),
        ),
        ev.SuggestionRefuted(at=at, suggestion=number, card=shown),
    ]


def _accuses(seat: int, window: int, day: int, cards: tuple[str, str, str]) -> list[ev.Event]:
    at = T0 + timedelta(days=day)
    s, w, p = cards
    return [
        ev.WindowOpened(at=at, window=window, closes_at=at + timedelta(hours=12)),
        ev.AccusationMade(at=at, seat=seat, window=window, suspect=s, weapon=w, place=p),
        ev.AccusationJudged(at=at, seat=seat, correct=cards == ENVELOPE),
        ev.WindowClosed(at=at, window=window),
    ]


def game(library_day: int = 4) -> list[ev.Event]:
    """The game; Carol shows Alice the Library on `library_day` (3 or 4)."""
    library = _asks(6, library_day, CAROL, "library", "library")
    return [
        *dealt(Settings(), FORUM_DECK, ENVELOPE, HANDS),
        _day(1),
        *_asks(1, 1, BOB, "hall", "mustard"),
        *_asks(2, 1, BOB, "kitchen", "dagger"),
        *_asks(3, 1, BOB, "ballroom", "ballroom"),
        _day(2),
        *_asks(4, 2, CAROL, "study", "study"),
        *_accuses(BOB, 1, 2, ("white", "rope", "hall")),
        ev.SeatReplaced(at=T0 + timedelta(days=2), seat=CAROL, old_user=3, new_user=7),
        _day(3),
        *_asks(5, 3, CAROL, "hall", "hall"),
        *(library if library_day == 3 else []),
        _day(4),
        *(library if library_day == 4 else []),
        *_accuses(ALICE, 2, 4, ENVELOPE),
    ]


def test_each_seat_holder_gets_the_day_the_notebook_named_it_and_the_day_they_accused() -> None:
    assert moments_of(game()) == (
        Moments(user=1, forced=4, accused=4),
        Moments(user=2, forced=None, accused=2),
        Moments(user=7, forced=None, accused=None),  # the newcomer holds Carol's seat
    )


def test_a_notebook_that_names_it_a_day_earlier_says_so() -> None:
    assert moments_of(game(library_day=3))[ALICE] == Moments(user=1, forced=3, accused=4)


def test_before_the_deal_there_is_nothing() -> None:
    assert moments_of(game()[:1]) == ()
