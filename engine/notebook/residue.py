"""The open part of a propagated grid, for the count (engine/notebook/count.py) and the
search (engine/notebook/search.py): the cards whose owner is not known, the *slots* they
may go to, and the clauses still open, each as the (card, slot) pairs that satisfy it.

What propagation settled is taken out: a card with a known owner is gone and its owner's
room is one less. The envelope is one slot of room one per category. Owners that no open
clause names and that may or may not hold the same open cards are one slot, a *pool*:
they are interchangeable, so a deal of the slots stands for a fixed number of deals of
the owners (a multinomial), and each of them holds a card of the pool in proportion to
its room.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.notebook.grid import FALSE, TRUE, UNKNOWN, Grid


@dataclass(frozen=True)
class Slot:
    """Where an open card may go: one owner, several interchangeable owners (a pool), or
    the envelope's place for one category (owner indices of the grid)."""

    owners: tuple[int, ...]
    rooms: tuple[int, ...]  # each owner's room left

    @property
    def room(self) -> int:
        return sum(self.rooms)


@dataclass(frozen=True)
class Residue:
    """The open part of a grid: the open cards (card indices of the grid), the slots each
    may go to, the slots, and each clause still open as the ways to satisfy it: (a
    position in `cards`, a slot) pairs, any one of which does (none implied by another)."""

    cards: list[int]
    domains: list[list[int]]  # by position in `cards`: slot indices
    slots: list[Slot]
    clauses: list[list[tuple[int, int]]]


def residue_of(grid: Grid, values: list[int]) -> Residue | None:
    """The grid's open part; None when the rooms left do not match the open cards."""
    width, envelope = grid.width, grid.envelope
    rooms = list(grid.sizes)
    envelope_rooms = [1] * (max(grid.category, default=-1) + 1)
    open_cards: list[int] = []
    for card in range(len(grid.cards)):
        row = values[card * width : card * width + width]
        if TRUE not in row:
            open_cards.append(card)
        elif row.index(TRUE) == envelope:
            envelope_rooms[grid.category[card]] -= 1
        else:
            rooms[row.index(TRUE)] -= 1
    if min(rooms, default=0) < 0 or min(envelope_rooms, default=0) < 0:
        return None
    open_clauses = [
        [(cell, holds) for cell, holds in literals if values[cell] == UNKNOWN]
        for literals, _ in grid.clauses
        if not any(values[cell] == (TRUE if holds else FALSE) for cell, holds in literals)
    ]
    named = {cell % width for literals in open_clauses for cell, _ in literals}
    slots, slot_of = _slots(grid, values, open_cards, rooms, named)
    envelope_slot: dict[int, int] = {}
    for k, room in enumerate(envelope_rooms):
        if room:
            envelope_slot[k] = len(slots)
            slots.append(Slot((envelope,), (1,)))
    if sum(slot.room for slot in slots) != len(open_cards):
        return None
    domains: list[list[int]] = []
    for card in open_cards:
        domain: list[int] = []
        for owner in range(width):
            if values[card * width + owner] != UNKNOWN:
                continue
            if owner == envelope:
                slot = envelope_slot.get(grid.category[card])
            else:
                slot = slot_of.get(owner)
            if slot is not None and slot not in domain:
                domain.append(slot)
        domains.append(domain)
    position = {card: i for i, card in enumerate(open_cards)}
    clauses: list[list[tuple[int, int]]] = []
    for literals in open_clauses:
        satisfying: list[tuple[int, int]] = []
        for cell, holds in literals:
            card, owner = divmod(cell, width)
            at = position[card]
            for slot in domains[at]:
                if (owner in slots[slot].owners) == holds and (at, slot) not in satisfying:
                    satisfying.append((at, slot))
        clauses.append(satisfying)
    return Residue(open_cards, domains, slots, _without_subsumed(clauses))


def _without_subsumed(clauses: list[list[tuple[int, int]]]) -> list[list[tuple[int, int]]]:
    """The clauses less those another one implies (the same ways or more: a clause
    satisfied whenever a smaller one is says nothing more)."""
    sets = sorted({frozenset(clause) for clause in clauses}, key=lambda c: (len(c), sorted(c)))
    kept: list[frozenset[tuple[int, int]]] = []
    for clause in sets:
        if not any(smaller <= clause for smaller in kept):
            kept.append(clause)
    return [sorted(clause) for clause in kept]


def _slots(
    grid: Grid, values: list[int], open_cards: list[int], rooms: list[int], named: set[int]
) -> tuple[list[Slot], dict[int, int]]:
    """The slots of the owners with room left (not the envelope): one for each owner a
    clause names, one for each pool of the others that may hold the same open cards."""
    width = grid.width
    slots: list[Slot] = []
    slot_of: dict[int, int] = {}
    pools: dict[tuple[bool, ...], list[int]] = {}
    for owner in range(width):
        if owner == grid.envelope or rooms[owner] == 0:
            continue
        if owner in named:
            slot_of[owner] = len(slots)
            slots.append(Slot((owner,), (rooms[owner],)))
        else:
            column = tuple(values[card * width + owner] == UNKNOWN for card in open_cards)
            pools.setdefault(column, []).append(owner)
    for owners in pools.values():
        for owner in owners:
            slot_of[owner] = len(slots)
        slots.append(Slot(tuple(owners), tuple(rooms[o] for o in owners)))
    return slots, slot_of
