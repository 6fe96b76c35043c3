"""`deal_count` (engine/notebook/count.py) in machine code: the same plan and passes
(compiled/kernels.py), each count as residues modulo four primes, put together again by the
Chinese remainder theorem. The numbers are the same; a count the residues could not hold
(more deals than the primes' product), a state wider than 62 bits or a step of more than
62 moves is left to the engine's own count."""

from __future__ import annotations

from math import prod

import numpy as np

from compiled.kernels import PRIMES, backward, forward
from engine.notebook.count import deal_count as counted_in_python
from engine.notebook.count import multinomial, plan_of
from engine.notebook.residue import Residue, Slot

_MODULUS = prod(PRIMES)
# x = sum(residue_i * _BASIS_i) mod _MODULUS
_BASIS = tuple((_MODULUS // p) * pow(_MODULUS // p, -1, p) for p in PRIMES)


def deal_count(residue: Residue) -> tuple[int, list[dict[int, int]]]:
    """The ways to deal the open cards, and for each card and slot the ways it lies there."""
    n = len(residue.cards)
    # every count is at most the ways to share the open cards among the slots' rooms
    fits = multinomial(tuple(slot.room for slot in residue.slots)) < _MODULUS
    if any(not clause for clause in residue.clauses) or not fits:
        return counted_in_python(residue)
    plan = plan_of(residue)
    too_wide = max(plan.start, plan.guards, *plan.limits).bit_length() > 62
    if too_wide or max(map(len, plan.moves), default=0) > 62:  # a bit per move in a mask
        return counted_in_python(residue)
    moves = [move for step in plan.moves for move in step]
    move_at = np.zeros(n + 1, np.int64)
    move_at[1:] = np.cumsum([len(step) for step in plan.moves])
    layers = forward(
        plan.start,
        plan.guards,
        np.array(plan.opens, np.int64),
        np.array(plan.closes, np.int64),
        np.array(plan.limits, np.int64),
        np.array([keep for keep, _, _ in moves], np.int64),
        np.array([unit for _, unit, _ in moves], np.int64),
        move_at,
    )
    slots = np.array([slot for _, _, slot in moves], np.int64)
    residues, cells = backward(plan.guards, *layers, slots, move_at, len(residue.slots))
    total = _joined(residues.tolist())
    by_card: list[dict[int, int]] = [{} for _ in range(n)]
    if total:
        for step, card in enumerate(plan.order):
            for slot, found in enumerate(cells[step].tolist()):
                if ways := _joined(found):
                    by_card[card][slot] = ways
    return total, by_card


def _joined(residues: list[int]) -> int:
    return sum(r * basis for r, basis in zip(residues, _BASIS, strict=True)) % _MODULUS


def compile_now() -> None:
    """Compile both passes now (or load them from numba's cache): two cards, two seats of
    one card each, a clause, so that every move of the kernels runs once."""
    residue = Residue([0, 1], [[0, 1], [0, 1]], [Slot((0,), (1,)), Slot((1,), (1,))], [[(0, 0)]])
    if deal_count(residue) != (1, [{0: 1}, {1: 1}]):
        raise RuntimeError("the compiled deal count miscounts two cards")
