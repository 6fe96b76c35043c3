"""Computer detectives (engine/detectives) in the forum format and at the table of every
edition (the classic, the 2023, the Liars: each edition's own steps through its play,
engine/detectives/plays.py): every game they play ends, the engine refuses none of their
moves, each accuses only as its level allows, and a decision depends only on what its seat
was told (changing what it never saw changes nothing). A fourth edition, played through a
registry built with it, needs nothing more than the default play, or a play of its own in
the table."""

from __future__ import annotations

import random
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import FORMATS as SHIPPED
from engine import Registry
from engine import commands as cmd
from engine import events as ev
from engine.detectives import Level, next_move
from engine.detectives.accusing import RACE, SURE_ENOUGH
from engine.detectives.detective import Detective
from engine.detectives.mind import Reading, mind_of
from engine.detectives.plays import PLAYS, classic_play
from engine.events import Event, GameStarted
from engine.evolve import replay
from engine.formats import FormatSpec
from engine.settings import GameFormat, Settings
from engine.state import Phase
from engine.table.edition import Edition
from engine.table.state import Step
from engine.y2023 import events as yev
from simulation.detectives import DetectiveGame, seats
from tests.engine.notebook.observe_games import scrubbed
from tests.support.toy_edition import D4, TOY, Knock, Knocked, ToyPart

# Games of each format played (a block each; the Liars' and the 2023's are longer to play).
GAMES = {
    GameFormat.FORUM: 12,
    GameFormat.CLASSIC: 12,
    GameFormat.Y2023: 8,
    GameFormat.LIARS: 8,
}
FORMATS = tuple(GAMES)


@cache
def played(seed: int, format: GameFormat) -> DetectiveGame:
    """A game of four to six detectives, two levels or more at the table."""
    settings = Settings(format=format)
    game = DetectiveGame(seed=seed, levels=seats(seed, 4 + seed % 3), settings=settings)
    game.play()
    return game


@pytest.mark.parametrize("format", FORMATS)
def test_detectives_play_every_game_to_its_end_with_no_move_refused(format: GameFormat) -> None:
    for seed in range(GAMES[format]):
        game = played(seed, format)
        assert game.game.phase is Phase.ENDED
        assert game.refused == []
    won = sum(played(seed, format).game.winner is not None for seed in range(GAMES[format]))
    assert won >= GAMES[format] // 2


@pytest.mark.parametrize("format", FORMATS)
def test_each_accusation_is_one_its_level_allows(format: GameFormat) -> None:
    accusations = 0
    for seed in range(GAMES[format]):
        game = played(seed, format)
        for seat, at, move in game.moves:
            if not isinstance(move, cmd.Accuse):
                continue
            accusations += 1
            level = game.levels[seat]
            mind = mind_of(game.events[:at], seat, level)
            named = (move.suspect, move.weapon, move.place)
            if mind.envelope() == named:
                continue  # forced by its own facts: every level may
            assert level is Level.INSPECTOR, f"a {level} accused on a guess"
            guess, odds = mind.best_guess()
            assert guess == named and odds >= RACE
            window_open = replay(game.events[:at])
            assert window_open is not None
            assert odds >= SURE_ENOUGH or window_open.window_open
    assert accusations >= GAMES[format]


def _own_answers_kept(other: list[Event], events: list[Event], seat: int) -> list[Event]:
    """The scrubbed log with the seat's own answers as they were: a detective remembers the
    cards it showed (the notebook leaves them out only because its hand says them)."""
    game = replay(events)
    assert game is not None and len(other) == len(events)
    kept = []
    for mine, changed in zip(events, other, strict=True):
        own = (
            isinstance(mine, ev.SuggestionRefuted)
            and (s := game.suggestion(mine.suggestion)) is not None
            and s.target == seat
        ) or (isinstance(mine, ev.CardShown) and mine.seat == seat)
        kept.append(mine if own else changed)
    return kept


@settings(max_examples=40)
@given(
    format=st.sampled_from(FORMATS),
    seed=st.integers(0, min(GAMES.values()) - 1),
    cut=st.floats(0.0, 1.0),
    level=st.sampled_from(list(Level)),
    shuffle=st.randoms(use_true_random=False),
)
def test_a_decision_depends_only_on_what_its_seat_was_told(
    format: GameFormat, seed: int, cut: float, level: Level, shuffle: random.Random
) -> None:
    record = played(seed, format).events
    dealt = next(i for i, e in enumerate(record) if isinstance(e, GameStarted)) + 1
    events = record[: dealt + int(cut * (len(record) - dealt))]
    game = replay(events)
    assert game is not None
    now = events[-1].at
    for seat in range(len(game.players)):
        other = _own_answers_kept(scrubbed(events, seat, shuffle), events, seat)
        changed = replay(other)
        assert changed is not None
        mine = next_move(level, game, events, seat, random.Random(seed), now)
        theirs = next_move(level, changed, other, seat, random.Random(seed), now)
        assert mine == theirs


@pytest.mark.parametrize("format", [GameFormat.FORUM, GameFormat.LIARS])
def test_a_reading_kept_between_decisions_knows_what_a_fresh_one_knows(
    format: GameFormat,
) -> None:
    """A seat's reading handed in at each decision (as the bot keeps it, its record loaded
    afresh each time) reads on while the record grows, and from the deal again when it is
    shorter or another game's: its mind is the one read from the deal."""
    record, other = played(0, format).events, played(1, format).events
    dealt = next(i for i, e in enumerate(record) if isinstance(e, GameStarted)) + 1
    for seat, level in enumerate(played(0, format).levels[:3]):
        reading = Reading(seat)
        cuts = [*range(dealt, len(record) + 1, 9), len(record), dealt + 4]
        for events in [*(list(record[:cut]) for cut in cuts), other, record]:
            assert mind_of(events, seat, level, reading) == mind_of(events, seat, level)
    with pytest.raises(ValueError, match="seat"):
        mind_of(record, 0, Level.SLEUTH, Reading(1))
    with pytest.raises(ValueError, match="dealt"):
        mind_of(record[: dealt - 1], 0, Level.SLEUTH, Reading(0))


def test_two_detectives_of_the_2023_edition_look_for_the_cards_in_rooms() -> None:
    """Two players: four cards lie face down in rooms, so the envelope is forced only
    once they have been looked at; the detectives go and look, and the games end."""
    settings = Settings(format=GameFormat.Y2023, min_players=2)
    for seed, levels in enumerate([(Level.INSPECTOR, Level.SLEUTH), (Level.SLEUTH, Level.NOVICE)]):
        game = DetectiveGame(seed=seed, levels=levels, settings=settings)
        game.play()
        assert game.game.winner is not None and game.refused == []
        assert any(isinstance(e, yev.PlacedCardSeen) for e in game.events)


# --- a fourth edition ---------------------------------------------------------------------


class KnockingD4(D4):
    """The toy edition (tests/support/toy_edition) with a step of its own for detectives
    (`knocking`)."""

    spec = FormatSpec("toy_knock", players=(3, 6))
    aliases = ("knock",)


def knocking(detective: Detective) -> cmd.Command | None:
    """A knock on the table before each turn's roll, then the classic turn."""
    table = detective.game.table
    assert table is not None
    part = table.edition if isinstance(table.edition, ToyPart) else ToyPart()
    if table.current == detective.seat and table.step is Step.ROLL and part.knocks < table.turn:
        return Knock(actor=detective.user)
    return classic_play(detective)


@pytest.mark.parametrize("edition", [TOY, KnockingD4()], ids=["default play", "own play"])
def test_a_fourth_edition_is_played_through_the_plays_table(edition: Edition) -> None:
    registry = Registry((*SHIPPED, edition))
    plays = {**PLAYS, "toy_knock": knocking}
    settings = Settings(format=edition.key)
    games = [
        DetectiveGame(seed=1, levels=seats(1, 4), settings=settings, registry=registry, plays=plays)
    ]
    for game in games:
        game.play()
        assert game.game.phase is Phase.ENDED and game.game.winner is not None
        assert game.refused == []
    knocks = sum(isinstance(e, Knocked) for game in games for e in game.events)
    turns = sum(isinstance(e, ev.TurnStarted) for game in games for e in game.events)
    assert knocks == (turns if isinstance(edition, KnockingD4) else 0)
