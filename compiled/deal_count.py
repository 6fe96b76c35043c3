"""`deal_count` (engine/notebook/count.py) in machine code: the same plan and passes
(compiled/kernels.py), each count as residues modulo three primes (four where its bound
needs more than 93 bits), put together again by the Chinese remainder theorem. The numbers
are the same. Left to the engine's own count: a count whose bound (the ways to share the
open cards among the slots' rooms) reaches four primes' product, a state wider than 62
bits, a step of more than 62 moves, or more than `MOST_PLACES` places."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from math import prod

import numpy as np

from compiled.kernels import (
    FOUR_PRIMES,
    THREE_PRIMES,
    Ints,
    Layers,
    Work,
    backward_3,
    backward_4,
    forward_3,
    forward_4,
    new_work,
)
from engine.notebook.count import Plan, multinomial, plan_of
from engine.notebook.count import deal_count as counted_in_python
from engine.notebook.residue import Residue, Slot

# the forward pass reserves two bits a place (its bit in the bitmap, and a 64-bit rank for
# each 64 places): 512 MB at most, of which it touches only the pages of places it marks
MOST_PLACES = 1 << 31
KEPT_WORK = 2  # counts' work kept for the next ones (some 75 MB each at ten seats)
KEPT_BYTES = 256 << 20  # and none larger than this (the memory of an unusually large count)


@dataclass(frozen=True)
class Primes:
    """A set of primes, the passes compiled for them, their product and the basis that
    joins residues again (x = the sum of residue_i * basis_i, modulo the product)."""

    primes: tuple[int, ...]
    forward: Callable[..., tuple[Layers, Work]]
    backward: Callable[..., tuple[Ints, Ints, Work]]
    modulus: int = field(init=False)
    basis: tuple[int, ...] = field(init=False)

    def __post_init__(self) -> None:
        modulus = prod(self.primes)
        basis = tuple((modulus // p) * pow(modulus // p, -1, p) for p in self.primes)
        object.__setattr__(self, "modulus", modulus)
        object.__setattr__(self, "basis", basis)

    def joined(self, residues: list[int]) -> int:
        """The number under the product with these residues."""
        return sum(r * b for r, b in zip(residues, self.basis, strict=True)) % self.modulus


PRIME_SETS = (
    Primes(THREE_PRIMES, forward_3, backward_3),
    Primes(FOUR_PRIMES, forward_4, backward_4),
)


class WorkShelf:
    """The work of finished counts, for the next ones (any thread: each count takes its own)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._kept: list[Work] = []

    def take(self) -> Work:
        with self._lock:
            return self._kept.pop() if self._kept else new_work()

    def give_back(self, work: Work) -> None:
        if sum(array.nbytes for array in work) > KEPT_BYTES:
            return
        with self._lock:
            if len(self._kept) < KEPT_WORK:
                self._kept.append(work)


_shelf = WorkShelf()


def deal_count(residue: Residue) -> tuple[int, list[dict[int, int]]]:
    """The ways to deal the open cards, and for each card and slot the ways it lies there."""
    # every count is at most the ways to share the open cards among the slots' rooms
    bound = multinomial(tuple(slot.room for slot in residue.slots))
    primes = next((primes for primes in PRIME_SETS if bound < primes.modulus), None)
    if any(not clause for clause in residue.clauses) or primes is None:
        return counted_in_python(residue)
    return counted(residue, primes)


def counted(residue: Residue, primes: Primes) -> tuple[int, list[dict[int, int]]]:
    """`deal_count` with these primes (the engine's count where the passes cannot)."""
    n = len(residue.cards)
    plan = plan_of(residue)
    start_place, places_count, place_units = _places(plan)
    too_wide = max(plan.start, plan.guards, *plan.limits).bit_length() > 62
    many_moves = max(map(len, plan.moves), default=0) > 62  # a bit per move in a mask
    if too_wide or many_moves or places_count > MOST_PLACES:
        return counted_in_python(residue)
    moves = [move for step in plan.moves for move in step]
    move_at = np.zeros(n + 1, np.int64)
    move_at[1:] = np.cumsum([len(step) for step in plan.moves])
    work = _shelf.take()
    steps_of = (
        plan.start,
        start_place,
        places_count,
        plan.guards,
        np.array(plan.opens, np.int64),
        np.array(plan.closes, np.int64),
        np.array(plan.limits, np.int64),
        np.array([keep for keep, _, _ in moves], np.int64),
        np.array([unit for _, unit, _ in moves], np.int64),
        np.array([place_units[slot] for _, _, slot in moves], np.int64),
        move_at,
    )
    layers, work = primes.forward(steps_of, work)
    slots = np.array([slot for _, _, slot in moves], np.int64)
    residues, cells, work = primes.backward(
        plan.guards, layers, slots, move_at, len(residue.slots), work
    )
    _shelf.give_back(work)
    total = primes.joined(residues.tolist())
    by_card: list[dict[int, int]] = [{} for _ in range(n)]
    if total:
        for step, card in enumerate(plan.order):
            for slot, found in enumerate(cells[step].tolist()):
                if ways := primes.joined(found):
                    by_card[card][slot] = ways
    return total, by_card


def _places(plan: Plan) -> tuple[int, int, list[int]]:
    """The start's place, how many places there are, and what a card dealt to each slot
    takes off a place (compiled/kernels.py): the rooms as digits, the slot of the largest
    room left out."""
    rooms = plan.rooms
    left_out = rooms.index(max(rooms)) if rooms else -1
    units, digits = [0] * len(rooms), 1
    for slot, room in enumerate(rooms):
        if slot != left_out:
            units[slot] = digits
            digits *= room + 1
    start = sum(room * unit for room, unit in zip(rooms, units, strict=True))
    return start << plan.flags, digits << plan.flags, [unit << plan.flags for unit in units]


def compile_now() -> None:
    """Compile the passes for each set of primes now (or load them from numba's cache):
    two cards, two seats of one card each, a clause, so that every move of the kernels
    runs once."""
    residue = Residue([0, 1], [[0, 1], [0, 1]], [Slot((0,), (1,)), Slot((1,), (1,))], [[(0, 0)]])
    for primes in PRIME_SETS:
        if counted(residue, primes) != (1, [{0: 1}, {1: 1}]):
            raise RuntimeError("the compiled deal count miscounts two cards")
