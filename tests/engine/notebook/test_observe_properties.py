"""A seat's notebook facts over random games of every format (the forum, the classic
table, the Liars Edition, the 2023 edition), one test per property:

- sound: after every event each fact holds of the cards as they lie then (the Liars
  Edition's hands after passes and cards put face up), and the case's sizes are the real
  ones;
- nothing unobserved: changing what the seat was never told changes nothing;
- everything observed: what the seat was told is there, as it was told.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import events as ev
from engine.cards import CATEGORY_ORDER
from engine.liars import events as lev
from engine.notebook.facts import (
    ENVELOPE,
    FACE_UP,
    ROOMS,
    Case,
    Clause,
    Fact,
    Source,
    SourceKind,
    holds,
    lacks,
    not_all,
    one_of,
)
from engine.notebook.observe import case_of, cases_over_time, notebook_steps
from engine.state import Game
from engine.y2023 import events as yev
from tests.engine.notebook.observe_games import FORMATS, Where, played, scrubbed, states, where

KEYS = list(FORMATS)
Cards = tuple[str, ...]
Named = dict[int, tuple[int, int]]  # a suggestion -> its suggester and target (or -1)
EXAMPLES = 10


@st.composite
def games(draw: st.DrawFn, key: str) -> tuple[list[ev.Event], int]:
    """A random game of the format: its events and how many play."""
    low, high = FORMATS[key][1]
    players = draw(st.integers(low, high))
    seed = draw(st.integers(0, 10**6))
    return played(key, seed, players), players


def _true(fact: Fact, owner: Where) -> bool:
    return all(
        any((owner[x.holding.card] == x.holding.owner) == x.holds for x in clause.literals)
        for clause in fact.clauses
    )


def _check_puzzle(case: Case, game: Game, owner: Where) -> None:
    """The case's cards and sizes are the game's, and they add up."""
    assert case.categories == tuple(game.in_play(c) for c in CATEGORY_ORDER)
    counted = {o: sum(1 for c in owner if owner[c] == o) for o in set(owner.values())}
    assert {o: n for o, n in counted.items() if o != ENVELOPE and n} == {
        o: n for o, n in case.sizes if n
    }
    assert sum(n for _, n in case.sizes) + len(case.categories) == len(case.cards)


@pytest.mark.parametrize("key", KEYS)
@settings(max_examples=EXAMPLES)
@given(data=st.data())
def test_every_fact_holds_of_the_cards_as_they_lie(key: str, data: st.DataObject) -> None:
    events, players = data.draw(games(key))
    truth = [(event, game, where(game)) for event, game in states(events)]
    for seat in range(players):
        steps = notebook_steps(events, seat)
        checked: set[int] = set()
        last: Where = {}
        for event, game, owner in truth:
            stepped, _, case = next(steps)
            assert stepped is event
            if owner != last:  # cards moved: every fact again
                checked, last = set(), owner
                _check_puzzle(case, game, owner)
            for fact in case.facts:
                if id(fact) not in checked:
                    assert _true(fact, owner), f"seat {seat} after {event}: {fact}"
                    checked.add(id(fact))


@pytest.mark.parametrize("key", KEYS)
@settings(max_examples=EXAMPLES)
@given(data=st.data(), shuffle=st.randoms(use_true_random=False))
def test_what_a_seat_was_not_told_changes_nothing(
    key: str, data: st.DataObject, shuffle: random.Random
) -> None:
    events, players = data.draw(games(key))
    for seat in range(players):
        other = scrubbed(events, seat, shuffle)
        assert list(cases_over_time(other, seat)) == list(cases_over_time(events, seat))


def _fact(kind: SourceKind, when: int, about: int | None, cards: Cards, *clauses: Clause) -> Fact:
    return Fact(Source(kind, when, about, cards), clauses)


def _answer(event: ev.Event, seat: int, when: int, game: Game, named: Named) -> list[Fact]:
    """A suggestion's answer: the card to the suggester (and what the GM's order proves,
    when it was the GM's order and not the refuter's standing answer),
    "one of the three" or "none of the three" to the others."""
    assert isinstance(
        event, ev.SuggestionRefuted | ev.CardShown | ev.SuggestionNotRefuted | ev.CouldNotRefute
    )
    key, cards = _suggestion(game, event.suggestion)
    suggester, target = named[key]
    who = event.seat if isinstance(event, ev.CardShown | ev.CouldNotRefute) else target
    if seat == who:
        return []
    if isinstance(event, ev.SuggestionNotRefuted | ev.CouldNotRefute):
        return [_fact(SourceKind.NOT_REFUTED, when, who, cards, *(lacks(c, who) for c in cards))]
    if seat != suggester:
        return [_fact(SourceKind.REFUTED, when, who, cards, one_of(who, cards))]
    if not event.by_gm:
        return [_fact(SourceKind.SHOWN, when, who, (event.card,), holds(event.card, who))]
    shown = _fact(SourceKind.SHOWN_BY_GM, when, who, (event.card,), holds(event.card, who))
    before = cards[: cards.index(event.card)]
    gm_order = (SourceKind.GM_ORDER, when, who, (event.card,))  # names the card it showed
    order = _fact(*gm_order, *(lacks(c, who) for c in before))
    by_standing = event.standing  # the refuter's own order, not the GM's: it proves nothing
    return [shown, order] if before and not by_standing else [shown]


def _told(event: ev.Event, seat: int, game: Game, named: Named) -> list[Fact]:
    """What the event tells the seat, as bot/announce tells it."""
    when = game.table.turn if game.table is not None else game.day
    K = SourceKind
    match event:
        case (
            ev.SuggestionRefuted()
            | ev.CardShown()
            | ev.SuggestionNotRefuted()
            | ev.CouldNotRefute()
        ):
            return _answer(event, seat, when, game, named)
        case ev.AccusedAtTable() if event.seat == seat and not event.correct:
            cards = (event.suspect, event.weapon, event.place)
            return [_fact(K.WRONG_ACCUSATION, when, seat, cards, not_all(ENVELOPE, cards))]
        case ev.AccusationJudged() if event.seat == seat and not event.correct:
            cards = next(a.cards for a in reversed(game.accusations) if a.seat == seat)
            return [_fact(K.WRONG_ACCUSATION, when, seat, cards, not_all(ENVELOPE, cards))]
        case lev.CardExposed():
            return [_fact(K.FACE_UP, when, event.seat, (event.card,), holds(event.card, FACE_UP))]
        case lev.TruthShown() if event.reader == seat and event.card is not None:
            card = event.card
            return [_fact(K.TRUTH_SHOWN, when, event.seat, (card,), holds(card, event.seat))]
        case lev.Peeked() if event.seat == seat:
            seen = (holds(c, event.target) for c in event.cards)
            return [_fact(K.PEEKED, when, event.target, event.cards, *seen)]
        case lev.CardsPassed():
            gave = [
                _fact(K.PASSED_BY_YOU, when, t, (c,), holds(c, t))
                for g, t, c in event.moves
                if g == seat
            ]
            got = [
                _fact(K.PASSED_TO_YOU, when, g, (c,), holds(c, seat))
                for g, t, c in event.moves
                if t == seat
            ]
            return gave + got
        case yev.PlacedCardSeen() if event.seat == seat:
            return [_fact(K.SEEN_IN_ROOM, when, None, (event.card,), holds(event.card, ROOMS))]
        case yev.ClueRevealed() if event.seat is None:
            nobody = (lacks(event.card, p.seat) for p in game.players if p.seat != seat)
            return [_fact(K.REVEALED, when, None, (event.card,), *nobody)]
        case yev.ClueRevealed() if event.seat is not None and event.seat != seat:
            return [
                _fact(K.REVEALED, when, event.seat, (event.card,), holds(event.card, event.seat))
            ]
        case yev.ClueCardShown() if event.to == seat and event.card is not None:
            card = event.card
            return [_fact(K.CLUE_SHOWN, when, event.seat, (card,), holds(card, event.seat))]
    return []


def _suggestion(game: Game, number: int) -> tuple[int, tuple[str, ...]]:
    """A suggestion's key in `named` and its cards."""
    if game.table is not None:
        found = next(s for s in game.table.suggestions if s.number == number)
        return found.number, found.cards
    made = game.suggestion(number)
    assert made is not None
    return made.id, made.cards


@pytest.mark.parametrize("key", KEYS)
@settings(max_examples=EXAMPLES)
@given(data=st.data())
def test_everything_a_seat_was_told_is_in_its_notebook(key: str, data: st.DataObject) -> None:
    events, players = data.draw(games(key))
    played_out = list(states(events))
    for seat in range(players):
        named: Named = {}
        steps = notebook_steps(events, seat)
        last: tuple[Fact, ...] | None = None
        for event, game in played_out:
            _, when, case = next(steps)
            assert when == (game.table.turn if game.table is not None else game.day)
            if isinstance(event, ev.SuggestionMade):
                named[event.suggestion] = (event.suggester, event.target)
            elif isinstance(event, ev.TableSuggestionMade):
                named[event.suggestion] = (event.suggester, -1)
            for fact in _told(event, seat, game, named):
                assert fact in case.facts, f"seat {seat} was told {fact} by {event}"
            if case.facts is not last:  # a hand changes only with the facts (a card moved)
                last = case.facts
                hands = [set(f.clauses) for f in case.facts if f.source.kind is SourceKind.HAND]
                hand = {holds(c, seat) for c, owner in where(game).items() if owner == seat}
                assert hands == ([hand] if hand else []), "one HAND fact: the current hand"
        assert case_of(events, seat) == case
