"""Exact counting by inclusion–exclusion, quick when nearly every open card may go to nearly
every seat (the forum's ten seats); engine/notebook/count.py asks it first and deals room
by room (its own dynamic programming) when its states grow past a bound.

The slots (engine/notebook/residue.py) are split in two. A *direct* slot (the envelope's
places, a seat that may take few of the open cards) is dealt to as in the count: how many
cards it took is in the state from its first possible card to its last. The others, the
*seats*, take their cards by inclusion–exclusion over the cells ruled out: the deals that
avoid them are the sum over sets S of ruled-out cells (a card in at most one) of
(-1)^|S| times the deals that put S's cards where S says and spread the other cards (the
*free* ones) anywhere over the seats: m!/prod(room - d)! ways for m free cards and d of
S's cards in each seat. A seat's d is in the state only from its first ruled-out card to
its last, then folded into the weight (room!/(room - d)!; the division by every room! is
left to the end), and so is f, the sum of every d (m = the seats' room - f). A clause is
counted by its complement: the deals that satisfy it are all of them less those where
each of its cells is ruled out, so at its first card the count branches (its bit set:
weight -1 and its cells ruled out until its last card).

Each cell's count: a direct slot's by a forward and a backward pass, as in the count. A
free card lies in seat s in (room_s - d_s)/m of its deals, which are the deals of one card
less with s one room less: one more factor, room_s - d_s, in s's fold, and (m - 1)! at the
end. Both passes carry, packed in one integer (a field a seat), the weights with one
seat's fold changed so: the forward pass for the seats folded before the card, the
backward pass for those folded after it.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import factorial, prod

from engine.notebook.order import fewest_open_order, shared_bits
from engine.notebook.residue import Residue


DIRECT_RULED = 14  # a slot ruled out for at least this many open cards is dealt to directly


class TooMany(Exception):
    """The count's states went over the limit it was given."""


Fold = tuple[int, int, list[int], int, int]  # shift, mask, room!/(room-d)! by d, seat, room
Direct = tuple[int, int, int, int, int]  # shift, mask, room, unit, slot
Forced = tuple[int, int, int, int]  # shift, mask, room, unit (d and f one more)


@dataclass(frozen=True)
class _Step:
    """One card's moves on packed states, then what closes and opens after it."""

    card: int  # position in the residue's cards
    free: bool  # whether it may go to a seat (freely, or to a ruled-out one with -1)
    keyed: int  # the bits of its clauses: its moves depend on them
    moves: dict[int, tuple[list[Forced], list[Direct]]]  # by keyed bits
    placed: dict[int, int]  # by keyed bits: the seats it may lie in, a bit per seat index
    closes: int
    folds: list[Fold]
    ends: list[tuple[int, int, int]]  # direct slots dealt out: shift, mask, room
    opens: list[int]  # clause bits the next card opens


@dataclass(frozen=True)
class _Plan:
    steps: list[_Step]
    opens: list[int]  # clause bits the first card opens
    seats: list[int]  # slot indices of the seats
    last: list[int]  # by seat index: the step of its last ruled-out card (-1: none)
    rooms: list[int]  # by seat index
    room: int  # the seats' room
    f_shift: int
    width: int  # bits of a packed field


def exclusion_count(residue: Residue, limit: int) -> tuple[int, list[dict[int, int]]]:
    """The ways to deal the open cards, and for each card and slot the ways it lies there
    (as engine/notebook/count.deal_count); TooMany when a step keeps over `limit` states."""
    n = len(residue.cards)
    none: tuple[int, list[dict[int, int]]] = (0, [{} for _ in range(n)])
    if any(not clause for clause in residue.clauses):
        return none
    plan = _plan(residue)
    if plan is None:
        return none
    seats = len(plan.seats)
    forward = _Fields(plan.width, 1 + seats)
    layers = _forward(plan, forward, limit)
    total = sum(
        forward.get(w, 0) * factorial(plan.room - (state >> plan.f_shift))
        for state, w in layers[-1].items()
    )
    if total == 0:
        return none
    by_card = _backward(plan, forward, _Fields(plan.width, 2 + seats), layers)
    divisor = prod(factorial(room) for room in plan.rooms)
    for found in by_card:
        for slot, ways in found.items():
            assert ways % divisor == 0
            found[slot] = ways // divisor
    assert total % divisor == 0
    return total // divisor, [{s: w for s, w in found.items() if w} for found in by_card]


class _Fields:
    """Signed fields packed in one integer: value i at bits width*i, each in
    [-2^(width-1), 2^(width-1)); sums and products by an integer act field by field."""

    def __init__(self, width: int, count: int) -> None:
        self.width = width
        self.mask = (1 << width) - 1
        self.half = 1 << (width - 1)
        self.bias = [self.half * sum(1 << (width * j) for j in range(i + 1)) for i in range(count)]

    def get(self, packed: int, index: int) -> int:
        return (((packed + self.bias[index]) >> (self.width * index)) & self.mask) - self.half

    def unit(self, index: int) -> int:
        return 1 << (self.width * index)


def _plan(residue: Residue) -> _Plan | None:
    """The dealing order, the packed state's fields and each step's moves (None when a
    slot may take none of the open cards)."""
    n, slots, domains = len(residue.cards), residue.slots, residue.domains
    takes: list[list[int]] = [[] for _ in slots]
    for p, domain in enumerate(domains):
        for k in domain:
            takes[k].append(p)
    if any(not cards for cards in takes):
        return None
    direct = [len(cards) <= n - DIRECT_RULED for cards in takes]
    seats = [k for k in range(len(slots)) if not direct[k]]
    ruled = [sorted(set(seats) - set(domain)) for domain in domains]
    marks = [set(ruled[p]) | {k for k in domains[p] if direct[k]} for p in range(n)]
    for j, clause in enumerate(residue.clauses):
        for p, k in clause:
            marks[p] |= {len(slots) + j} | ({k} if not direct[k] else set())
    order = fewest_open_order(marks)
    step_of = {p: t for t, p in enumerate(order)}
    spans = [
        (min(step_of[p] for p, _ in c), max(step_of[p] for p, _ in c)) for c in residue.clauses
    ]
    bits = [1 << b for b in shared_bits(spans)]
    shift = max(bits, default=1).bit_length()
    room = sum(slots[k].room for k in seats)
    f_shift, shift = shift, shift + max(1, room.bit_length())
    field: dict[int, tuple[int, int, int]] = {}  # slot -> shift, mask, room
    last_of = {
        k: max((step_of[p] for p in range(n) if k in marks[p]), default=-1)
        for k in range(len(slots))
    }
    for k, slot in enumerate(slots):
        if last_of[k] >= 0:
            width = slot.room.bit_length()
            field[k] = (shift, (1 << width) - 1, slot.room)
            shift += width
    steps = []
    moves_bound = 1
    for t, p in enumerate(order):
        mine = [j for j, c in enumerate(residue.clauses) if any(q == p for q, _ in c)]
        keyed = sum(bits[j] for j in mine)
        free = any(not direct[k] for k in domains[p])
        moves: dict[int, tuple[list[Forced], list[Direct]]] = {}
        placed: dict[int, int] = {}
        for sub in _submasks(keyed):
            cells = {k for j in mine if bits[j] & sub for q, k in residue.clauses[j] if q == p}
            forced = (
                [
                    (*field[k], (1 << field[k][0]) + (1 << f_shift))
                    for k in sorted(set(ruled[p]) | {k for k in cells if not direct[k]})
                ]
                if free
                else []
            )
            directs = [
                (*field[k], 1 << field[k][0], k) for k in domains[p] if direct[k] and k not in cells
            ]
            moves[sub] = (forced, directs)
            placed[sub] = sum(
                1 << i for i, k in enumerate(seats) if k in domains[p] and k not in cells
            )
            moves_bound = max(moves_bound, 1 + len(forced) + len(directs))
        steps.append(
            _Step(
                card=p,
                free=free,
                keyed=keyed,
                moves=moves,
                placed=placed,
                closes=sum(b for b, (_, end) in zip(bits, spans, strict=True) if end == t),
                folds=[
                    (*field[k][:2], _falling(slots[k].room), i, slots[k].room)
                    for i, k in enumerate(seats)
                    if last_of[k] == t
                ],
                ends=[field[k] for k in range(len(slots)) if direct[k] and last_of[k] == t],
                opens=[b for b, (first, _) in zip(bits, spans, strict=True) if first == t + 1],
            )
        )
    rooms = [slots[k].room for k in seats]
    width = (
        2
        * (
            (moves_bound ** (n + 1)).bit_length()
            + len(bits)
            + sum(factorial(r).bit_length() for r in rooms)
            + 8
        )
        + factorial(room).bit_length()
        + 40
    )
    return _Plan(
        steps=steps,
        opens=[b for b, (first, _) in zip(bits, spans, strict=True) if first == 0],
        seats=seats,
        last=[last_of[k] for k in seats],
        rooms=rooms,
        room=room,
        f_shift=f_shift,
        width=width,
    )


def _submasks(mask: int) -> list[int]:
    subs, sub = [], mask
    while True:
        subs.append(sub)
        if sub == 0:
            return subs
        sub = (sub - 1) & mask


def _falling(room: int) -> list[int]:
    """room!/(room - d)! for d = 0 .. room."""
    return [factorial(room) // factorial(room - d) for d in range(room + 1)]


def _after(step: _Step, state: int) -> list[tuple[int, int, list[tuple[int, int]]]]:
    """What follows a card's move: its clauses closed, the seats done folded (the weight's
    factor, and for each the extra factor less one of its changed fold), the direct slots
    done checked full, the next card's clauses opened (bit set: weight -1)."""
    state &= ~step.closes
    factor = 1
    changed: list[tuple[int, int]] = []
    for shift, mask, table, seat, room in step.folds:
        d = state >> shift & mask
        factor *= table[d]
        changed.append((seat, room - d - 1))
        state &= ~(mask << shift)
    for shift, mask, room in step.ends:
        if state >> shift & mask != room:
            return []
        state &= ~(mask << shift)
    out = [(state, factor)]
    for bit in step.opens:
        out += [(s | bit, -w) for s, w in out]
    return [(s, w, changed) for s, w in out]


def _forward(plan: _Plan, fields: _Fields, limit: int) -> list[dict[int, int]]:
    """For each step, the states before it and their packed weights: the plain one
    (field 0) and, for each seat, the one with its fold changed (field 1 + seat)."""
    start = fields.unit(0) + sum(
        fields.unit(1 + i) * (room if last < 0 else 1)
        for i, (room, last) in enumerate(zip(plan.rooms, plan.last, strict=True))
    )
    layer: dict[int, int] = {0: start}
    for bit in plan.opens:
        layer.update({s | bit: -w for s, w in list(layer.items())})
    layers = [layer]
    for step in plan.steps:
        moved: dict[int, int] = {}
        get = moved.get
        for state, w in layer.items():
            forced, direct = step.moves[state & step.keyed]
            if step.free:
                moved[state] = get(state, 0) + w
            for shift, mask, room, unit in forced:
                if state >> shift & mask < room:
                    moved[state + unit] = get(state + unit, 0) - w
            for shift, mask, room, unit, _ in direct:
                if state >> shift & mask < room:
                    moved[state + unit] = get(state + unit, 0) + w
        layer = {}
        for state, w in moved.items():  # kept at weight 0: a cell's ways may still pass
            for after, factor, changed in _after(step, state):
                value = w * factor
                for seat, extra in changed:
                    value += fields.get(w, 1 + seat) * factor * extra * fields.unit(1 + seat)
                layer[after] = layer.get(after, 0) + value
        if len(layer) > limit:
            raise TooMany
        layers.append(layer)
    return layers


def _backward(
    plan: _Plan, forward: _Fields, fields: _Fields, layers: list[dict[int, int]]
) -> list[dict[int, int]]:
    """The ways to finish from each state, step by step from the end, packed: with m!
    (field 0), with (m - 1)! (field 1) and so with each seat's fold changed (field 2 +
    seat); with the forward weights, each card's ways to lie in each slot."""
    seats = len(plan.seats)
    changed_ends = sum(fields.unit(2 + i) for i in range(seats)) + fields.unit(1)
    ahead: dict[int, int] = {}
    for state in layers[-1]:
        m = plan.room - (state >> plan.f_shift)
        ahead[state] = factorial(m) * fields.unit(0) + (factorial(m - 1) * changed_ends if m else 0)
    by_card: list[dict[int, int]] = [{} for _ in plan.steps]
    for t in range(len(plan.steps) - 1, -1, -1):
        step = plan.steps[t]
        known: dict[int, int] = {}

        def finish(state: int) -> int:
            value = known.get(state)
            if value is None:
                value = 0
                for after, factor, changed in _after(step, state):
                    rest = ahead.get(after, 0)
                    value += rest * factor
                    for seat, extra in changed:
                        value += fields.get(rest, 2 + seat) * factor * extra * fields.unit(2 + seat)
                known[state] = value
            return value

        here: dict[int, int] = {}
        placed_early: dict[int, int] = {}  # by placed seats: forward changed x (m-1)!
        placed_late: dict[int, int] = {}  # by placed seats: plain x backward changed
        found: dict[int, int] = {}
        for state, w in layers[t].items():
            forced, direct = step.moves[state & step.keyed]
            plain = forward.get(w, 0)
            total = 0
            if step.free:
                rest = finish(state)
                if rest:
                    total += rest
                    seen = step.placed[state & step.keyed]
                    placed_early[seen] = placed_early.get(seen, 0) + w * fields.get(rest, 1)
                    placed_late[seen] = placed_late.get(seen, 0) + plain * rest
            for shift, mask, room, unit in forced:
                if state >> shift & mask < room:
                    total -= finish(state + unit)
            for shift, mask, room, unit, slot in direct:
                if state >> shift & mask < room:
                    rest = finish(state + unit)
                    total += rest
                    found[slot] = found.get(slot, 0) + plain * fields.get(rest, 0)
            if total:
                here[state] = total
        ahead = here
        for i, slot in enumerate(plan.seats):
            if plan.last[i] < t:
                ways = sum(
                    forward.get(v, 1 + i) for seen, v in placed_early.items() if seen >> i & 1
                )
            else:
                ways = sum(fields.get(v, 2 + i) for seen, v in placed_late.items() if seen >> i & 1)
            if ways:
                found[slot] = ways
        by_card[step.card] = found
    return by_card
