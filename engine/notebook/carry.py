"""Carrying a seat's facts over cards that change owner (the Liars Edition's card put face
up, and its pass to the left), so that every fact stays true of the cards as they lie now.

- A card the seat sees move (one put face up, the card it passed, the one it received):
  before the move its owner was known, so each literal about it is decided. A clause with
  a true one said nothing more and goes; a false literal leaves its clause. Facts about the
  card where it is now come with the event.
- A card another player passed without the seat seeing it (each passer gives one card to
  the left, all at once): "c@X" becomes "c@X or c@left(X)"; "X lacks c" no longer holds
  if X received an unseen card, and its clause goes (it stays if X received none, or the
  card X received is known and is not c).
- Facts about the envelope, the face-up cards and the cards in rooms survive a pass
  unchanged: no card leaves or enters them then (a card put face up is a move everyone
  sees, above).
- Before unseen passes lose anything, what follows by plain propagation (a clause with one
  literal left, each card with one owner, the envelope's one card per category, the
  sizes) is added as one PASSED fact (see `propagated`): what it says of the envelope
  (e.g. its card of a category, once every other owner lacks it) stays, what it says of a
  hand is carried like any other fact. A fact left with no clause is dropped.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.ids import Seat
from engine.notebook.facts import (
    ENVELOPE,
    FACE_UP,
    Case,
    Clause,
    Fact,
    Holding,
    Literal,
    Owner,
    Source,
    SourceKind,
)
from engine.notebook.observed import Moved

Decided = bool | tuple[Literal, ...]  # a literal after the move: known, or what it became


def carry(case: Case, moved: Sequence[Moved], seat: Seat, when: int) -> tuple[Fact, ...]:
    """The case's facts as they hold once the cards have moved (see the module's note)."""
    facts = list(case.facts)
    if any(m.card is None for m in moved):
        kept = propagated(case, seat)
        if kept:
            facts.append(Fact(Source(SourceKind.PASSED, when), kept))
    carried = []
    for fact in facts:
        clauses = tuple(c for c in (_clause(c, moved) for c in fact.clauses) if c is not None)
        if clauses:
            carried.append(Fact(fact.source, clauses))
    return tuple(carried)


def _clause(clause: Clause, moved: Sequence[Moved]) -> Clause | None:
    """The clause after the moves; None when it no longer says anything."""
    literals: list[Literal] = []
    for literal in clause.literals:
        became = _literal(literal, moved)
        if became is True:
            return None
        if became is not False:
            literals.extend(x for x in became if x not in literals)
    assert literals, f"a fact proved false: {clause}"
    return Clause(tuple(literals))


def _literal(literal: Literal, moved: Sequence[Moved]) -> Decided:
    card, owner = literal.holding.card, literal.holding.owner
    for move in moved:
        if move.card == card:  # seen moving: where it was is known
            return (owner == move.giver) == literal.holds
    unseen = [m for m in moved if m.card is None]
    if literal.holds:
        gone = [m.taker for m in unseen if m.giver == owner]
        return (literal, *(Literal(Holding(card, taker)) for taker in gone))
    if any(m.taker == owner for m in unseen):
        return True  # it may have come in: the clause says nothing any more
    return (literal,)


def propagated(case: Case, seat: Seat) -> tuple[Clause, ...]:
    """What plain propagation adds to the facts, as one-literal clauses: where a card is
    (not in the seat's own hand, which it knows), and where a card whose place is not
    settled is not: a hand, the rooms, or the envelope while its card of that category is
    open (the face-up cards are all known). Nothing a fact already says in one literal."""
    known = implied(case)
    said = {c.literals[0] for f in case.facts for c in f.clauses if len(c.literals) == 1}
    placed = {h.card: h.owner for h, v in known.items() if v}
    open_envelope = {
        card
        for category in case.categories
        if not any(placed.get(c) == ENVELOPE for c in category)
        for card in category
    }

    def worth(holding: Holding, value: bool) -> bool:
        if holding.owner == seat:
            return False
        if value:
            return True
        if holding.card in placed or holding.owner == FACE_UP:
            return False
        return holding.owner != ENVELOPE or holding.card in open_envelope

    return tuple(
        Clause((literal,))
        for holding, value in sorted(known.items())
        if worth(holding, value) and (literal := Literal(holding, value)) not in said
    )


def implied(case: Case) -> dict[Holding, bool]:
    """The cells settled by propagation alone: a clause down to one open literal, a card
    with one owner, an owner holding its size (the envelope: one card per category)."""
    value: dict[Cell, bool] = {}
    clauses = [
        [((x.holding.card, x.holding.owner), x.holds) for x in c.literals]
        for f in case.facts
        for c in f.clauses
    ]
    groups = _groups(case)
    changed = True
    while changed:
        changed = False
        for literals in clauses:
            if any(value.get(cell) is holds for cell, holds in literals):
                continue
            open_ = [(cell, holds) for cell, holds in literals if cell not in value]
            if len(open_) == 1:
                value[open_[0][0]] = open_[0][1]
                changed = True
        for cells, size in groups:
            changed |= _settle(value, cells, size)
    return {Holding(card, owner): v for (card, owner), v in value.items()}


Cell = tuple[str, Owner]


def _groups(case: Case) -> list[tuple[tuple[Cell, ...], int]]:
    """Sets of cells and how many of each are true: each card's owners (one), each
    owner's cards (its size), the envelope's cards of each category (one)."""
    owners = case.owners
    groups = [(tuple((c, o) for o in owners), 1) for c in case.cards]
    for owner, size in case.sizes:
        groups.append((tuple((c, owner) for c in case.cards), size))
    for category in case.categories:
        groups.append((tuple((c, ENVELOPE) for c in category), 1))
    return groups


def _settle(value: dict[Cell, bool], cells: tuple[Cell, ...], size: int) -> bool:
    """Fill a group's open cells when its count decides them; whether any was filled."""
    open_ = [cell for cell in cells if cell not in value]
    if not open_:
        return False
    true = sum(1 for cell in cells if value.get(cell) is True)
    if true == size:
        fill = False
    elif true + len(open_) == size:
        fill = True
    else:
        return False
    for cell in open_:
        value[cell] = fill
    return True
