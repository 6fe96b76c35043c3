"""Small random notebook cases and their truth by brute force, for the solver's tests:
every deal of a small deck listed, those that fit the facts kept.

A case has 1 to 3 cards per category, 2 or 3 seats of random sizes (some of them empty),
sometimes face-up cards or cards in rooms, and a random mix of every kind of clause: plain
facts (a hand, a card shown, could not refute), "a seat holds one of these", "not all of
these in the envelope" and clauses over several owners. Half the cases take their facts
from a real deal (so some deal fits), half make them up (so many fit no deal).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace
from fractions import Fraction
from itertools import combinations, product

from engine.cards import CardId
from engine.notebook.facts import (
    ENVELOPE,
    FACE_UP,
    ROOMS,
    Case,
    Clause,
    Fact,
    Holding,
    Literal,
    Owner,
    Source,
    SourceKind,
    holds,
    lacks,
    not_all,
    one_of,
)

Deal = dict[CardId, Owner]


def deals(case: Case) -> Iterator[Deal]:
    """Every deal of the case's cards: one card per category in the envelope, every other
    owner exactly its size."""
    owners = [(owner, size) for owner, size in case.sizes]
    for envelope in product(*case.categories):
        rest = [card for card in case.cards if card not in envelope]
        for deal in _split(rest, owners):
            deal.update(dict.fromkeys(envelope, ENVELOPE))
            yield deal


def _split(cards: list[CardId], owners: list[tuple[Owner, int]]) -> Iterator[Deal]:
    if not owners:
        if not cards:
            yield {}
        return
    (owner, size), others = owners[0], owners[1:]
    for hand in combinations(cards, size):
        rest = [card for card in cards if card not in hand]
        for deal in _split(rest, others):
            deal.update(dict.fromkeys(hand, owner))
            yield deal


def fits(facts: tuple[Fact, ...], deal: Deal) -> bool:
    return all(
        any((deal.get(x.holding.card) == x.holding.owner) == x.holds for x in clause.literals)
        for fact in facts
        for clause in fact.clauses
    )


class Truth:
    """The deals that fit a case, and what they say of each cell."""

    def __init__(self, case: Case, facts: tuple[int, ...] | None = None) -> None:
        kept = case.facts if facts is None else tuple(case.facts[i] for i in facts)
        self.case = case
        self.fitting = [deal for deal in deals(case) if fits(kept, deal)]

    def odds(self) -> dict[Holding, Fraction]:
        total = len(self.fitting)
        return {
            Holding(card, owner): Fraction(sum(d[card] == owner for d in self.fitting), total)
            for card in self.case.cards
            for owner in self.case.owners
        }

    def forced(self) -> dict[Holding, bool]:
        return {h: p == 1 for h, p in self.odds().items() if p in (0, 1)}


def random_case(rng: random.Random) -> Case:
    """A small random case (see the module's note)."""
    categories = tuple(tuple(f"{'swp'[k]}{i}" for i in range(rng.randint(1, 3))) for k in range(3))
    dealt = sum(len(c) for c in categories) - 3
    owners: list[Owner] = list(range(rng.randint(2, 3)))
    if rng.random() < 0.25:
        owners.append(rng.choice((FACE_UP, ROOMS)))
    cuts = sorted(rng.randint(0, dealt) for _ in range(len(owners) - 1))
    bounds = [0, *cuts, dealt]
    sizes = tuple((owner, bounds[i + 1] - bounds[i]) for i, owner in enumerate(owners))
    case = Case(categories, sizes)
    truth = next(iter(_shuffled_deals(rng, case)))
    facts = tuple(
        _fact(rng, case, truth if rng.random() < 0.5 else None) for _ in range(rng.randint(0, 8))
    )
    return replace(case, facts=facts)


def _shuffled_deals(rng: random.Random, case: Case) -> list[Deal]:
    found = list(deals(case))
    rng.shuffle(found)
    return found


def _fact(rng: random.Random, case: Case, truth: Deal | None) -> Fact:
    """A random fact of a random kind: true of `truth` when given (made up when None)."""
    cards, owners = case.cards, case.owners
    for _ in range(100):
        kind = rng.choice(("holds", "lacks", "one_of", "not_all", "mixed", "lacks_all"))
        card, owner = rng.choice(cards), rng.choice(owners)
        named = tuple(rng.sample(cards, rng.randint(1, min(3, len(cards)))))
        if kind == "holds":
            fact = Fact(Source(SourceKind.SHOWN), (holds(card, owner),))
        elif kind == "lacks":
            fact = Fact(Source(SourceKind.NOT_REFUTED), (lacks(card, owner),))
        elif kind == "lacks_all":
            fact = Fact(Source(SourceKind.NOT_REFUTED), tuple(lacks(c, owner) for c in named))
        elif kind == "one_of":
            fact = Fact(Source(SourceKind.REFUTED), (one_of(owner, named),))
        elif kind == "not_all":
            accused = tuple(rng.choice(category) for category in case.categories)
            fact = Fact(Source(SourceKind.WRONG_ACCUSATION), (not_all(ENVELOPE, accused),))
        else:
            literals = tuple(
                Literal(Holding(rng.choice(cards), rng.choice(owners)), rng.random() < 0.7)
                for _ in range(rng.randint(1, 3))
            )
            fact = Fact(Source(SourceKind.PASSED), (Clause(literals),))
        if truth is None or fits((fact,), truth):
            return fact
    return Fact(Source(SourceKind.DEAL), ())
