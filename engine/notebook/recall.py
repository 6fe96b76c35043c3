"""What the reasons' questions (engine/notebook/explain.py) found, kept across cases: an
answer depends only on the deal's shape and the facts' clauses, so a game's next case,
whose facts are mostly the same, asks again only what its new facts change.

- `forced_alone`: the cells one fact (or none) forces on its own. The fact is renamed
  first, its cards within their category and its seats among the seats of the same size,
  in the order it names them: a symmetry of the shape, so it forces the same cells renamed
  back, and "c with X or with Y" is worked out once for every card c and such seats X, Y
  (what a Liars pass makes of each "c with X", engine/notebook/carry.py).
- `answer_to`: whether some facts force a cell, by the facts' contents (`content`).
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from functools import lru_cache
from types import MappingProxyType
from typing import TypeVar

from engine.cards import CardId
from engine.notebook.facts import Case, Clause, Fact, Holding, Literal, Owner, Source, SourceKind
from engine.notebook.grid import TRUE, UNKNOWN, Grid, Propagation, grid_of
from engine.notebook.solve import settle

Key = TypeVar("Key")
Question = tuple[str, tuple[str, ...], Holding, bool]  # shape, facts' contents, cell, value


def content(fact: Fact) -> str:
    """What a fact says (its clauses), as a key: the same (one string) for the same
    clauses."""
    return sys.intern(
        ";".join(
            " ".join(f"{x.holding.card!r},{x.holding.owner},{x.holds:d}" for x in clause.literals)
            for clause in fact.clauses
        )
    )


def shape_of(case: Case) -> str:
    """The deal's shape (the cards by category, the sizes), as a key."""
    return sys.intern(repr((case.categories, case.sizes)))


@lru_cache(maxsize=32_768)
def answer_to(question: Question) -> list[bool]:
    """Where the answer to a question is kept: whether facts of these contents force the
    cell to the value, in a case of this shape (empty until it is worked out)."""
    return []


def forced_alone(case: Case, fact: Fact | None) -> Mapping[Holding, bool]:
    """The cells the deal's shape and this fact (or none) force on their own."""
    renaming = _Renaming(case)
    clauses = () if fact is None else tuple(renaming.clause(c) for c in fact.clauses)
    found = _forced_alone(case.categories, case.sizes, clauses)
    cards, owners = renaming.back()
    return {
        Holding(cards.get(h.card, h.card), owners.get(h.owner, h.owner)): value
        for h, value in found.items()
    }


@lru_cache(maxsize=4096)
def _forced_alone(
    categories: tuple[tuple[CardId, ...], ...],
    sizes: tuple[tuple[Owner, int], ...],
    clauses: tuple[Clause, ...],
) -> Mapping[Holding, bool]:
    facts = (Fact(Source(SourceKind.DEAL), clauses),) if clauses else ()
    return MappingProxyType(forced_cells(grid_of(Case(categories, sizes, facts))))


def forced_cells(grid: Grid) -> dict[Holding, bool]:
    """The cells the grid's facts force (none when no deal fits them)."""
    propagated = Propagation(grid)
    if propagated.conflict is not None:
        return {}
    settled = settle(grid, propagated.values)
    if settled is None:
        return {}
    return {
        grid.holding(cell): value == TRUE for cell, value in enumerate(settled) if value != UNKNOWN
    }


class _Renaming:
    """Each card to the next unused one of its category and each seat to the next unused
    seat of its size, in the order a fact names them (anything else keeps its name)."""

    def __init__(self, case: Case) -> None:
        self.categories = case.categories
        self.category = {card: k for k, cards in enumerate(case.categories) for card in cards}
        peers: dict[int, list[Owner]] = {}
        for owner, size in case.sizes:
            if owner >= 0:
                peers.setdefault(size, []).append(owner)
        self.peers = {owner: tuple(group) for group in peers.values() for owner in group}
        self.cards: dict[CardId, CardId] = {}
        self.owners: dict[Owner, Owner] = {}

    def clause(self, clause: Clause) -> Clause:
        return Clause(tuple(self._literal(x) for x in clause.literals))

    def _literal(self, literal: Literal) -> Literal:
        card, owner = literal.holding.card, literal.holding.owner
        if card in self.category and card not in self.cards:
            cards = self.categories[self.category[card]]
            self.cards[card] = _next_unused(cards, self.cards)
        if owner in self.peers and owner not in self.owners:
            self.owners[owner] = _next_unused(self.peers[owner], self.owners)
        renamed = Holding(self.cards.get(card, card), self.owners.get(owner, owner))
        return Literal(renamed, literal.holds)

    def back(self) -> tuple[dict[CardId, CardId], dict[Owner, Owner]]:
        """The whole renaming undone: each new name to the old (the names the fact does
        not use go in order to those left)."""
        cards = _undone(self.cards, self.categories)
        owners = _undone(self.owners, tuple(set(self.peers.values())))
        return cards, owners


def _next_unused(names: tuple[Key, ...], given: Mapping[Key, Key]) -> Key:
    used = set(given.values())
    return next(name for name in names if name not in used)


def _undone(given: Mapping[Key, Key], groups: tuple[tuple[Key, ...], ...]) -> dict[Key, Key]:
    undone = {new: old for old, new in given.items()}
    for group in groups:
        left = [name for name in group if name not in undone]
        for old in (name for name in group if name not in given):
            undone[left.pop(0)] = old
    return undone
