"""Exact counting of the deals that fit a propagated grid, and how many of them put each
card with each owner.

The open cards (engine/notebook/residue.py) are dealt one at a time by dynamic
programming. A state is what is still open after some cards: each slot's room left and
which clauses begun are not yet satisfied, packed in one integer (a field per slot with a
guard bit that a subtraction below zero clears, then a bit per open clause). A clause must
be satisfied by the time its last card is dealt, so the cards are ordered to close clauses
early (engine/notebook/order.py), and a state whose room can no longer be filled by the
cards to come is dropped. A forward pass counts the ways to reach each state, a backward
pass the ways to finish from it; their products give every cell's count at once.

The same count compiled (compiled/deal_count.py: the same plan, the same passes, in machine
code) gives the same numbers some twenty times sooner; a process that has it says so with
`use_counter`, and `count` deals with it from then on. This module stays the reference.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from math import factorial
from operator import add, mul

from engine.notebook.grid import TRUE, Grid
from engine.notebook.order import card_order, shared_bits
from engine.notebook.residue import Residue, residue_of

DealCounter = Callable[[Residue], tuple[int, list[dict[int, int]]]]
"""What `deal_count` is: the ways to deal the open cards, and for each card and slot the
ways it lies there."""

_counter: list[DealCounter] = []  # the faster twin a process said to use, if any


def use_counter(counter: DealCounter | None) -> None:
    """Have `count` deal with `counter` (a twin of `deal_count` that gives the same numbers),
    or with `deal_count` again (None)."""
    _counter[:] = [] if counter is None else [counter]


@dataclass(frozen=True)
class Counts:
    """How many deals fit (`total`) and how many of them make each cell true."""

    total: int
    cells: list[int]


def count(grid: Grid, values: list[int]) -> Counts:
    """The deals that fit the propagated values (no contradiction among them)."""
    residue = residue_of(grid, values)
    if residue is None:
        return Counts(0, [0] * grid.cell_count)
    total, by_card = (_counter[0] if _counter else deal_count)(residue)
    pooled = 1
    for slot in residue.slots:
        pooled *= multinomial(slot.rooms)
    cells = [0] * grid.cell_count
    if total == 0:
        return Counts(0, cells)
    everything = total * pooled
    for cell, value in enumerate(values):
        if value == TRUE:
            cells[cell] = everything
    width = grid.width
    for position, card in enumerate(residue.cards):
        for slot_index, ways in by_card[position].items():
            slot = residue.slots[slot_index]
            for owner, room in zip(slot.owners, slot.rooms, strict=True):
                if room:
                    cells[card * width + owner] = ways * pooled * room // slot.room
    return Counts(everything, cells)


def multinomial(parts: tuple[int, ...]) -> int:
    """The ways to split sum(parts) things into groups of these sizes."""
    ways = factorial(sum(parts))
    for part in parts:
        ways //= factorial(part)
    return ways


class TooMany(Exception):
    """The count's states went over the limit it was given."""


def deal_count(residue: Residue) -> tuple[int, list[dict[int, int]]]:
    """The ways to deal the open cards, and for each card and slot the ways it lies there."""
    n = len(residue.cards)
    if any(not clause for clause in residue.clauses):
        return 0, [{} for _ in range(n)]
    plan = plan_of(residue)
    layers = _forward(plan)
    total = layers[n].get(plan.guards, 0)
    by_card: list[dict[int, int]] = [{} for _ in range(n)]
    if total:
        _backward(layers, plan, by_card)
    return total, by_card


def deal_exists(residue: Residue, limit: int) -> bool:
    """Whether any deal of the open cards fits (the forward pass alone); TooMany when a
    step would keep more than `limit` states."""
    if any(not clause for clause in residue.clauses):
        return False
    plan = plan_of(residue)
    layers = _forward(plan, limit)
    return plan.guards in layers[-1]


@dataclass(frozen=True)
class Plan:
    """The count's dealing order and its moves on packed states (see the module's note):
    each step's moves are (bits it keeps, the unit it takes off, the slot). A state's
    lowest `flags` bits are its open clauses, a field a slot above them its room left;
    `rooms` are the slots' rooms at the start."""

    order: list[int]
    start: int
    guards: int
    opens: list[int]
    closes: list[int]
    moves: list[list[tuple[int, int, int]]]
    limits: list[int]
    flags: int
    rooms: list[int]


def plan_of(residue: Residue) -> Plan:
    n = len(residue.cards)
    order = card_order(n, [[p for p, _ in clause] for clause in residue.clauses])
    step_of = {card: step for step, card in enumerate(order)}
    spans = [
        (min(step_of[p] for p, _ in clause), max(step_of[p] for p, _ in clause))
        for clause in residue.clauses
    ]
    bit = shared_bits(spans)
    flags = max(bit, default=-1) + 1
    opens, closes = [0] * n, [0] * n
    satisfies: list[dict[int, int]] = [{} for _ in range(n)]  # step -> slot -> bits
    for j, clause in enumerate(residue.clauses):
        mask = 1 << bit[j]
        opens[spans[j][0]] |= mask
        closes[spans[j][1]] |= mask
        for p, slot in clause:
            step = step_of[p]
            satisfies[step][slot] = satisfies[step].get(slot, 0) | mask
    rooms = [slot.room for slot in residue.slots]
    width = max(rooms, default=0).bit_length() + 1
    half = 1 << (width - 1)
    offset = [flags + s * width for s in range(len(rooms))]
    guards = sum(half << o for o in offset)
    start = sum((room + half) << o for room, o in zip(rooms, offset, strict=True))
    moves = [
        [
            (~satisfies[step].get(slot, 0), 1 << offset[slot], slot)
            for slot in residue.domains[order[step]]
        ]
        for step in range(n)
    ]
    limits = _limits(residue, order, rooms, offset, half, flags)
    return Plan(order, start, guards, opens, closes, moves, limits, flags, rooms)


def _limits(
    residue: Residue, order: list[int], rooms: list[int], offset: list[int], half: int, flags: int
) -> list[int]:
    """For each step, the packed bound on every slot's room once that card is dealt: no
    more than the cards still to come that it may take (and never over its room)."""
    n = len(order)
    remaining = [0] * len(rooms)
    limits = [0] * n
    low = (1 << flags) - 1
    for step in range(n - 1, -1, -1):
        limits[step] = low + sum(
            (min(room, left) + 2 * half) << o
            for room, left, o in zip(rooms, remaining, offset, strict=True)
        )
        for slot in residue.domains[order[step]]:
            remaining[slot] += 1
    return limits


def _forward(plan: Plan, most: int | None = None) -> list[dict[int, int]]:
    """For each step, the states before it and the ways to reach each (TooMany past
    `most` states in a step)."""
    guards = plan.guards
    layers: list[dict[int, int]] = [{plan.start: 1}]
    for step, choices in enumerate(plan.moves):
        opened, closed, limit = plan.opens[step], plan.closes[step], plan.limits[step]
        after: dict[int, int] = {}
        get = after.get
        states = list(layers[-1].items())
        if opened:
            states = [(state | opened, ways) for state, ways in states]
        # a move is kept when no room goes below zero nor over its limit (both guard bits
        # stay set) and it leaves no clause that ends here unsatisfied
        for keep, unit, _ in choices:
            kept = [
                (moved, ways)
                for state, ways in states
                if (moved := (state & keep) - unit) & (limit - moved) & guards == guards
                and not moved & closed
            ]
            if not after and keep == -1:
                after.update(kept)  # a move that clears no bit reaches each state once
                continue
            for moved, ways in kept:
                after[moved] = get(moved, 0) + ways
        if most is not None and len(after) > most:
            raise TooMany
        layers.append(after)
    return layers


def _backward(layers: list[dict[int, int]], plan: Plan, by_card: list[dict[int, int]]) -> None:
    """The ways to finish from each state, step by step from the end, and with the ways to
    reach it, each card's ways to lie in each slot (a move at a time over all the states:
    list comprehensions and map run quicker than a loop over states and moves)."""
    opens, moves, order = plan.opens, plan.moves, plan.order
    ahead: dict[int, int] = {plan.guards: 1}
    for step in range(len(moves) - 1, -1, -1):
        opened = opens[step]
        states = list(layers[step])
        reach = list(layers[step].values())
        if opened:
            states = [state | opened for state in states]
        finish = [0] * len(states)
        found: dict[int, int] = {}
        get = ahead.get
        for keep, unit, slot in moves[step]:
            if keep == -1:
                rest = [get(state - unit, 0) for state in states]
            else:
                rest = [get((state & keep) - unit, 0) for state in states]
            ways = sum(map(mul, reach, rest))
            if ways:
                found[slot] = ways
                finish = list(map(add, finish, rest))
        ahead = {state: w for state, w in zip(layers[step], finish, strict=True) if w}
        by_card[order[step]] = found
