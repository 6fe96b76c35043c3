"""Simulated games as one player's stream of notebook observations, for the solver's
benchmark (bench/notebook_solver.py) and its independent check (tests/engine/notebook).

A random deal, the observer's hand, then suggestions of random cards in turn: at the
table each player after the suggester is asked in order until one can refute (the others
could not, for everyone to see), in the forum the suggester names one player to ask. The
refuter shows a random matching card; only the suggester sees which (the observer's own
suggestions give SHOWN facts, everyone else's a REFUTED clause). Now and then the observer
accuses wrongly, which only they learn. Every answer is one update of the notebook.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from engine.cards import CardId
from engine.notebook.facts import (
    ENVELOPE,
    Case,
    Fact,
    Owner,
    Source,
    SourceKind,
    holds,
    lacks,
    not_all,
    one_of,
)


@dataclass(frozen=True)
class Setup:
    """A game's shape: cards per category, each seat's hand size, and whether one player
    is asked (the forum) or each in turn (the table)."""

    name: str
    categories: tuple[int, int, int]
    hands: tuple[int, ...]
    forum: bool
    suggestions: int  # how many suggestions the game runs for


# The benchmark's setups (bench/notebook_solver.py); the big forum games after them are
# timed for the forced cells (and at eight players the odds) only.
SETUPS = (
    Setup("forum, 6 players x 3", (6, 6, 9), (3,) * 6, forum=True, suggestions=60),
    Setup("table, 6 players x 3", (6, 6, 9), (3,) * 6, forum=False, suggestions=40),
    Setup("table, 3 players x 6", (6, 6, 9), (6,) * 3, forum=False, suggestions=40),
    Setup("table, 4 players 5,5,4,4", (6, 6, 9), (5, 5, 4, 4), forum=False, suggestions=40),
)
BIG_FORUM = (
    Setup("forum, 8 players x 3", (8, 8, 11), (3,) * 8, forum=True, suggestions=80),
    Setup("forum, 10 players x 3", (10, 10, 13), (3,) * 10, forum=True, suggestions=100),
)


def deck(counts: tuple[int, ...]) -> tuple[tuple[CardId, ...], ...]:
    """Card names by category: s0.., w0.., p0.."""
    return tuple(tuple(f"{'swp'[k]}{i}" for i in range(n)) for k, n in enumerate(counts))


@dataclass(frozen=True)
class Game:
    """A simulated game: where every card lies, and the observer's cases over time."""

    owner: dict[CardId, Owner]
    cases: tuple[Case, ...]


def simulate(setup: Setup, seed: int, observer: int = 0) -> Game:
    """A random game of the setup, as the observer's case after each update."""
    rng = random.Random(seed)
    categories = deck(setup.categories)
    owner = _deal(rng, categories, setup.hands)
    sizes = tuple(enumerate(setup.hands))
    hand = tuple(card for category in categories for card in category if owner[card] == observer)
    facts: list[Fact] = [
        Fact(Source(SourceKind.HAND, 0, observer, hand), tuple(holds(c, observer) for c in hand))
    ]
    cases = [Case(categories, sizes, tuple(facts))]
    accusations = {setup.suggestions // 2, setup.suggestions * 5 // 6}
    for turn, new in enumerate(_observations(rng, setup, categories, owner, observer), 1):
        facts.extend(new)
        if turn in accusations:
            facts.extend(_wrong_accusation(rng, categories, owner, observer, turn))
        if new:
            cases.append(Case(categories, sizes, tuple(facts)))
    return Game(owner, tuple(cases))


def _deal(
    rng: random.Random, categories: tuple[tuple[CardId, ...], ...], hands: tuple[int, ...]
) -> dict[CardId, Owner]:
    owner: dict[CardId, Owner] = {rng.choice(category): ENVELOPE for category in categories}
    rest = [card for category in categories for card in category if card not in owner]
    rng.shuffle(rest)
    at = 0
    for seat, size in enumerate(hands):
        owner.update(dict.fromkeys(rest[at : at + size], seat))
        at += size
    return owner


def _observations(
    rng: random.Random,
    setup: Setup,
    categories: tuple[tuple[CardId, ...], ...],
    owner: dict[CardId, Owner],
    observer: int,
) -> Iterator[list[Fact]]:
    """The facts each suggestion gives the observer, one suggestion after another."""
    seats = len(setup.hands)
    for turn in range(1, setup.suggestions + 1):
        suggester = turn % seats
        named = tuple(rng.choice(category) for category in categories)
        if setup.forum:
            asked = [rng.choice([s for s in range(seats) if s != suggester])]
        else:
            asked = [(suggester + k) % seats for k in range(1, seats)]
        new: list[Fact] = []
        for seat in asked:
            matching = [card for card in named if owner[card] == seat]
            if seat == observer:
                if matching:
                    break
                continue  # their own hand says it
            if not matching:
                source = Source(SourceKind.NOT_REFUTED, turn, seat, named)
                new.append(Fact(source, tuple(lacks(card, seat) for card in named)))
                continue
            if suggester == observer:
                shown = rng.choice(matching)
                source = Source(SourceKind.SHOWN, turn, seat, (shown,))
                new.append(Fact(source, (holds(shown, seat),)))
            else:
                source = Source(SourceKind.REFUTED, turn, seat, named)
                new.append(Fact(source, (one_of(seat, named),)))
            break
        yield new


def _wrong_accusation(
    rng: random.Random,
    categories: tuple[tuple[CardId, ...], ...],
    owner: dict[CardId, Owner],
    observer: int,
    turn: int,
) -> list[Fact]:
    """The observer accuses three cards that are not all in the envelope."""
    while True:
        named = tuple(rng.choice(category) for category in categories)
        if any(owner[card] != ENVELOPE for card in named):
            source = Source(SourceKind.WRONG_ACCUSATION, turn, observer, named)
            return [Fact(source, (not_all(ENVELOPE, named),))]
