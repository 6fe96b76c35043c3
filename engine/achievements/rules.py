"""The achievements, each a named rule with a stable key (the catalog's `achievement.KEY`):
most are judged from one ended game's facts, for a seat; a few over many games, from the
person's tally (`series`: told to the person alone, since a chat should not learn how
someone plays elsewhere). `scope`: the families or formats where it can be earned (None:
every one)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from types import MappingProxyType

from engine.achievements.editions import LIARS
from engine.achievements.facts import Facts
from engine.computer import Level, detective_level
from engine.ids import Seat
from engine.standings import FORUM, TABLE


@dataclass(frozen=True)
class Tally:
    """A person's record over their rated games, as the series achievements need it."""

    games: int = 0
    streak: int = 0  # wins in a row, up to the last game
    clean: int = 0  # wins since their last wrong accusation


@dataclass(frozen=True)
class Achievement:
    key: str
    game: Callable[[Facts, Seat], bool] | None = None  # judged from the game, for a seat
    series: Callable[[Tally], bool] | None = None  # ... or from the tally after the game
    scope: frozenset[str] | None = None


def _won(f: Facts, seat: Seat) -> bool:
    return f.game.winner == seat


def _held(f: Facts, seat: Seat) -> bool:
    """The seat had one holder the whole game (its deeds are all theirs)."""
    return seat not in f.replaced


def _first_forced(f: Facts, seat: Seat) -> bool:
    return _won(f, seat) and f.forced_at_accusation is True and not f.forced_before


def _hunch(f: Facts, seat: Seat) -> bool:
    return _won(f, seat) and f.forced_at_accusation is False


def _inspectors(f: Facts, seat: Seat) -> bool:
    levels = [detective_level(p.user) for p in f.game.players]
    return _won(f, seat) and levels.count(Level.INSPECTOR) >= 3


def _last_standing(f: Facts, seat: Seat) -> bool:
    others = [p for p in f.game.players if p.seat != seat]
    return _won(f, seat) and len(others) >= 2 and all(p.eliminated for p in others)


def _photo_finish(f: Facts, seat: Seat) -> bool:
    window = next((a.window for a in f.game.accusations if a.seat == seat), None)
    return _won(f, seat) and window is not None and len(f.windows.get(window, ())) > 1


def _punctual(f: Facts, seat: Seat) -> bool:
    s = f.seats[seat]
    return _held(f, seat) and s.by_gm == 0 and s.answered >= 3


def _poker_face(f: Facts, seat: Seat) -> bool:
    shown = f.seats[seat].shown
    return _held(f, seat) and len(shown) >= 3 and len({card for _, card, _ in shown}) == 1


def _nothing_given(f: Facts, seat: Seat) -> bool:
    """The GM answered for the seat with its standing answer at least twice, each time with
    a card the seat had shown that suggester before: it gave nothing new away."""
    seen: set[tuple[Seat, str]] = set()
    standing = 0
    for to, card, by_standing in f.seats[seat].shown:
        if by_standing:
            if (to, card) not in seen:
                return False
            standing += 1
        seen.add((to, card))
    return _held(f, seat) and standing >= 2


ACHIEVEMENTS: tuple[Achievement, ...] = (
    Achievement("first_win", game=_won),
    Achievement(
        "day_one", game=lambda f, s: _won(f, s) and f.accused_day == 1, scope=frozenset({FORUM})
    ),
    Achievement(
        "swift", game=lambda f, s: _won(f, s) and 0 < f.own_turns <= 5, scope=frozenset({TABLE})
    ),
    Achievement("first_forced", game=_first_forced),
    Achievement("hunch", game=_hunch),
    Achievement("three_inspectors", game=_inspectors),
    Achievement("machine_beaten", game=lambda f, s: _won(f, s) and f.game.computers_played),
    Achievement("full_house", game=lambda f, s: _won(f, s) and len(f.game.players) >= 6),
    Achievement("few_questions", game=lambda f, s: _won(f, s) and f.seats[s].suggestions <= 3),
    Achievement("last_standing", game=_last_standing),
    Achievement("photo_finish", game=_photo_finish, scope=frozenset({FORUM})),
    Achievement("punctual", game=_punctual),
    Achievement("poker_face", game=_poker_face),
    Achievement("nothing_given", game=_nothing_given),
    Achievement("passages", game=lambda f, s: f.seats[s].passages >= 3, scope=frozenset({TABLE})),
    Achievement(
        "liar_caught", game=lambda f, s: f.seats[s].liars_caught >= 1, scope=frozenset({LIARS})
    ),
    Achievement("regular", series=lambda t: t.games >= 10),
    Achievement("veteran", series=lambda t: t.games >= 50),
    Achievement("hat_trick", series=lambda t: t.streak >= 3),
    Achievement("clean_ten", series=lambda t: t.clean >= 10),
)
BY_KEY = MappingProxyType({a.key: a for a in ACHIEVEMENTS})
