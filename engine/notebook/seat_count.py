"""Counting the deals seat by seat, by inclusion–exclusion over the cells ruled out: the
count for many seats with few facts each (the forum's ten), where the card-by-card count
(engine/notebook/count.py) must hold every seat's room at once.

With no cell ruled out, the deals are a closed form: each open envelope place takes one
of its category's cards, and the other cards fill the seats in any order, (M)! / Π R!
ways for M cards and rooms R. A seat's ruled-out cells and its "holds one of these"
clauses are undone by inclusion–exclusion: a sum, with signs, over the sets F of cells
placed on purpose (a card at a seat that may not hold it), of the closed form for the rest:
Π_k (e_k − c_k) · (M − |F|)! / Π (R_s − f_s)!, where e_k is how many cards the envelope's
place k may take and c_k how many of them F placed. The seats are taken one at a time; a
state is which cards F has placed that a later seat could place again (the *frontier*)
and, for the envelope's product, which places a placed card was *marked* for (the product
expands over one marked card per place); its value is a polynomial in |F|, packed in one
integer (a field of `bits` per power). Each seat's own choices are listed once.

A card's odds come from the same sums: a card with no fact on it lies with seat t in the
deals counted with t's room one less (a *channel* per seat, run beside the count), and a
card with facts on it is taken out of the deal and counted the same way, once per kind of
card. Clauses over several owners (a wrong accusation's "not all three") are undone
outside, one count per subset. The count says None when it would be slower than the
card-by-card one: more such clauses, or too many states.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from math import factorial

from engine.notebook.residue import Residue

MAX_OUTER = 3  # clauses over several owners, each doubling the counts
MAX_CHOICES = 5_000  # one seat's subsets of the cards it touches
MAX_STATES = 3_000  # states of a step


class _Costly(Exception):
    """The seat-by-seat count would take longer than the card-by-card one."""


def seat_deal_count(
    residue: Residue, envelope: frozenset[int]
) -> tuple[int, list[dict[int, int]]] | None:
    """The ways to deal the open cards and, for each card and slot, the ways it lies there
    (as `count.deal_count`); None when this way is not the quicker. `envelope`: the slots
    that are the envelope's places."""
    single: dict[int, list[frozenset[int]]] = {}
    outer: list[list[tuple[int, int]]] = []
    for clause in residue.clauses:
        owners = {slot for _, slot in clause}
        if len(owners) == 1 and not owners & envelope:
            single.setdefault(owners.pop(), []).append(frozenset(p for p, _ in clause))
        else:
            outer.append(clause)
    if len(outer) > MAX_OUTER:
        return None
    n = len(residue.cards)
    total = 0
    by_card: list[dict[int, int]] = [{} for _ in range(n)]
    try:
        for subset in range(1 << len(outer)):
            ruled_out = {pair for j, c in enumerate(outer) if subset >> j & 1 for pair in c}
            sign = -1 if bin(subset).count("1") % 2 else 1
            branch = _branch(residue, envelope, single, ruled_out)
            if branch is None:
                continue
            ways, cells = branch.solve()
            total += sign * ways
            for position, slot in branch.fixed.items():
                by_card[position][slot] = by_card[position].get(slot, 0) + sign * ways
            for position, found in cells.items():
                for slot, count in found.items():
                    by_card[position][slot] = by_card[position].get(slot, 0) + sign * count
    except _Costly:
        return None
    return total, [{s: w for s, w in found.items() if w} for found in by_card]


def _branch(
    residue: Residue,
    envelope: frozenset[int],
    single: dict[int, list[frozenset[int]]],
    ruled_out: set[tuple[int, int]],
) -> _Deal | None:
    """The deal with these extra (card, slot) pairs ruled out, the cards left with one
    place put there; None when no deal fits."""
    rooms = {s: slot.room for s, slot in enumerate(residue.slots) if s not in envelope}
    places = {s for s in envelope}
    domains = {
        p: {s for s in domain if (p, s) not in ruled_out} for p, domain in enumerate(residue.domains)
    }
    fixed: dict[int, int] = {}
    changed = True
    while changed:
        changed = False
        for p, domain in domains.items():
            if p in fixed:
                continue
            domain &= {s for s in domain if rooms.get(s, 0) > 0 or s in places}
            if not domain:
                return None
            if len(domain) == 1:
                (slot,) = domain
                fixed[p] = slot
                if slot in places:
                    places.discard(slot)
                else:
                    rooms[slot] -= 1
                changed = True
    clauses: dict[int, list[frozenset[int]]] = {}
    for seat, listed in single.items():
        for cards in listed:
            if any(fixed.get(p) == seat for p in cards):
                continue
            left = frozenset(p for p in cards if p not in fixed and seat in domains[p])
            if not left:
                return None
            clauses.setdefault(seat, []).append(left)
    open_cards = [p for p in domains if p not in fixed]
    return _Deal(
        {p: frozenset(domains[p]) for p in open_cards},
        {s: r for s, r in rooms.items() if r > 0},
        sorted(places),
        clauses,
        fixed,
    )


@dataclass
class _Deal:
    """One count's deal: the open cards' slots, the seats' rooms, the envelope's open
    places, each seat's "holds one of these" clauses, and the cards already placed."""

    domains: dict[int, frozenset[int]]
    rooms: dict[int, int]
    places: list[int]
    clauses: dict[int, list[frozenset[int]]]
    fixed: dict[int, int]
    place_of: dict[int, int] = field(default_factory=dict)  # card -> its place's index

    def solve(self) -> tuple[int, dict[int, dict[int, int]]]:
        """The ways, and each open card's ways per slot."""
        seats = sorted(self.rooms)
        for p, domain in self.domains.items():
            for k, place in enumerate(self.places):
                if place in domain:
                    self.place_of[p] = k
        if sum(self.rooms.values()) != len(self.domains) - len(self.places):
            return 0, {}
        touched = {s: self._touched(s) for s in seats}
        kinds: dict[tuple[object, ...], list[int]] = {}
        for p in self.domains:
            lacking = frozenset(s for s in seats if touched[s] >> p & 1)
            in_clauses = frozenset(
                (s, i) for s in seats for i, c in enumerate(self.clauses.get(s, [])) if p in c
            )
            kinds.setdefault((lacking, in_clauses, self.place_of.get(p)), []).append(p)
        counter = _Counter(self, seats, touched)
        total = counter.total()
        cells: dict[int, dict[int, int]] = {}
        for (lacking, in_clauses, _), cards in kinds.items():
            found = counter.cells_of(cards[0], bool(lacking or in_clauses))
            for p in cards:
                cells[p] = found
        return total, cells

    def _touched(self, seat: int) -> int:
        """The cards (bits by position) the seat may not hold or a clause of it names."""
        bits = 0
        for p, domain in self.domains.items():
            if seat not in domain:
                bits |= 1 << p
        for cards in self.clauses.get(seat, []):
            for p in cards:
                bits |= 1 << p
        return bits


class _Counter:
    """The seat-by-seat sums of one deal, and of the deal with one card taken out."""

    def __init__(self, deal: _Deal, seats: list[int], touched: dict[int, int]) -> None:
        self.deal = deal
        self.touched = touched
        self.order = _seat_order(seats, touched)
        self.k = len(deal.places)
        self.cards_to_seats = sum(deal.rooms.values())
        self.norm = 1
        for s in seats:
            self.norm *= factorial(deal.rooms[s])
        self.places_take = [0] * self.k
        for k in deal.place_of.values():
            self.places_take[k] += 1
        self.bits = self._bits()
        self.width = (self.cards_to_seats + 1) * self.bits
        self.base = self._run(None)

    def _bits(self) -> int:
        """A field wide enough for any coefficient the sums reach."""
        bound = len(self.order) + 2
        for s in self.order:
            bound *= 1 + (1 << len(self.deal.clauses.get(s, []))) * _subsets(
                self.touched[s].bit_count(), self.deal.rooms[s]
            ) * factorial(self.deal.rooms[s]) * (2 * max(self.places_take + [1])) ** self.k
        return bound.bit_length() + 2

    def total(self) -> int:
        end = self.base[-1]
        ways = sum(
            self._finish(self._block(value, 0), m, self.cards_to_seats, self.places_take, None)
            for m, value in end.items()
        )
        assert ways % self.norm == 0
        return ways // self.norm

    def cells_of(self, card: int, touched: bool) -> dict[int, int]:
        """Each slot's ways to hold this card (every card of its kind the same)."""
        layers = self._run(card) if touched else self.base
        end = layers[-1]
        take = list(self.places_take)
        place = self.deal.place_of.get(card)
        if place is not None:
            take[place] -= 1
        found: dict[int, int] = {}
        domain = self.deal.domains[card]
        for i, seat in enumerate(self.order):
            if seat not in domain:
                continue
            ways = sum(
                self._finish(self._block(value, 1 + i), m, self.cards_to_seats - 1, take, None)
                for m, value in end.items()
            )
            found[seat] = ways // self.norm
        if place is not None:
            ways = sum(
                self._finish(self._block(value, 0), m, self.cards_to_seats, take, place)
                for m, value in end.items()
            )
            found[self.deal.places[place]] = ways // self.norm
        return found

    def _block(self, value: int, channel: int) -> int:
        """One channel's polynomial out of a state's packed value (blocks are signed)."""
        width = self.width
        half = 1 << (width - 1)
        for _ in range(channel):
            block = ((value + half) & ((1 << width) - 1)) - half
            value = (value - block) >> width
        return ((value + half) & ((1 << width) - 1)) - half

    def _finish(self, packed: int, marks: int, cards: int, take: list[int], closed: int | None) -> int:
        """The closed form for the rest, summed over the powers of |F|."""
        if not packed or (closed is not None and marks >> closed & 1):
            return 0
        factor = -1 if marks.bit_count() % 2 else 1
        for k in range(self.k):
            if k != closed and not marks >> k & 1:
                factor *= take[k]
        if not factor:
            return 0
        bits = self.bits
        full, half = 1 << bits, 1 << (bits - 1)
        ways, power = 0, 0
        while packed:
            digit = packed & (full - 1)
            if digit >= half:
                digit -= full
            if digit:
                ways += digit * factorial(cards - power)
            packed = (packed - digit) >> bits
            power += 1
        return factor * ways

    def _run(self, without: int | None) -> list[dict[int, int]]:
        """The layers of the sums, seat by seat (the card `without` taken out): each
        state's value packs the count's polynomial and each seat's channel, a block of
        `width` bits apiece (the count's first)."""
        order, k, width = self.order, self.k, self.width
        touched = self.touched
        if without is not None:
            bit = ~(1 << without)
            touched = {s: t & bit for s, t in touched.items()}
        shared = _shared(touched, order)
        later = [0] * (len(order) + 1)
        for i in range(len(order) - 1, -1, -1):
            later[i] = later[i + 1] | touched[order[i]]
        start = 0
        if without is not None:
            while start < len(order) and not self.touched[order[start]] >> without & 1:
                start += 1
            layers = list(self.base[: start + 1])
        else:
            layers = [{0: 1}]
        low, half = (1 << width) - 1, 1 << (width - 1)
        for i in range(start, len(order)):
            seat = order[i]
            keep = shared & later[i + 1]
            table = self._table(seat, touched[seat], shared, without, 0)
            reduced = self._table(seat, touched[seat], shared, without, (1 + i) * width)
            after: dict[int, int] = {}
            get = after.get
            for key, value in layers[-1].items():
                used, marks = key >> k, key & ((1 << k) - 1)
                for a, q, poly in table[marks]:
                    if not a & used:
                        nk = (((used | a) & keep) << k) | marks | q
                        after[nk] = get(nk, 0) + value * poly
                choices = reduced[marks]
                if choices:
                    base = ((value + half) & low) - half
                    for a, q, poly in choices:
                        if not a & used:
                            nk = (((used | a) & keep) << k) | marks | q
                            after[nk] = get(nk, 0) + base * poly
            if len(after) > MAX_STATES:
                raise _Costly
            layers.append(after)
        return layers

    def _table(
        self, seat: int, touched: int, shared: int, without: int | None, channel: int
    ) -> list[list[tuple[int, int, int]]]:
        """For each set of marks so far, the seat's choices: (cards of the frontier it
        places, marks it adds, the packed polynomial of their signed weights). With a
        `channel` (its block's offset), the seat's room is one less, its weights those
        of a card put there, and the polynomial lands in that block."""
        deal = self.deal
        reduced = channel > 0
        room = deal.rooms[seat] - (1 if reduced else 0)
        if room < 0:
            return [[] for _ in range(1 << self.k)]
        clauses = [
            frozenset(p for p in c if p != without)
            for c in deal.clauses.get(seat, [])
            if not (reduced and without in c)
        ]
        lacking = 0
        for p, domain in deal.domains.items():
            if seat not in domain and p != without:
                lacking |= 1 << p
        unions: list[tuple[int, int]] = []
        for b in range(1 << len(clauses)):
            mask = 0
            for i, c in enumerate(clauses):
                if b >> i & 1:
                    for p in c:
                        mask |= 1 << p
            unions.append((mask, -1 if bin(b).count("1") % 2 else 1))
        cards = [p for p in range(touched.bit_length()) if touched >> p & 1]
        if _subsets(len(cards), room) > MAX_CHOICES:
            raise _Costly
        grouped: dict[tuple[int, int, tuple[int, ...]], int] = {}
        for f in range(min(room, len(cards)) + 1):
            for chosen in combinations(cards, f):
                mask = 0
                per_place = [0] * self.k
                for p in chosen:
                    mask |= 1 << p
                    place = deal.place_of.get(p)
                    if place is not None:
                        per_place[place] += 1
                loose = mask & ~lacking
                coef = sum(sign for union, sign in unions if loose & ~union == 0)
                if not coef:
                    continue
                key = (mask & shared, f, tuple(per_place))
                grouped[key] = grouped.get(key, 0) + (-coef if f % 2 else coef)
        full_room = deal.rooms[seat]
        bits = self.bits
        tables: list[list[tuple[int, int, int]]] = []
        for marks in range(1 << self.k):
            polys: dict[tuple[int, int], int] = {}
            for (a, f, per_place), coef in grouped.items():
                weight = coef * _falling(full_room, f + (1 if reduced else 0))
                free = [k for k in range(self.k) if not marks >> k & 1 and per_place[k]]
                for size in range(len(free) + 1):
                    for added in combinations(free, size):
                        mult = weight
                        q = 0
                        for k in added:
                            mult *= per_place[k]
                            q |= 1 << k
                        polys[(a, q)] = polys.get((a, q), 0) + (mult << (f * bits + channel))
            tables.append([(a, q, poly) for (a, q), poly in polys.items() if poly])
        return tables


def _shared(touched: dict[int, int], order: list[int]) -> int:
    """The cards two or more seats touch: the ones a state must remember."""
    once = twice = 0
    for s in order:
        twice |= once & touched[s]
        once |= touched[s]
    return twice


def _seat_order(seats: list[int], touched: dict[int, int]) -> list[int]:
    """The seats in the order that keeps the frontier small (greedy: each time the seat
    after which the fewest shared cards are both behind and ahead)."""
    shared = _shared(touched, seats)
    left = list(seats)
    order: list[int] = []
    behind = 0
    while left:
        best: tuple[int, int, int] | None = None
        for s in left:
            ahead = 0
            for t in left:
                if t != s:
                    ahead |= touched[t]
            frontier = ((behind | touched[s]) & ahead & shared).bit_count()
            key = (frontier, (touched[s] & shared).bit_count(), s)
            if best is None or key < best:
                best = key
        assert best is not None
        order.append(best[2])
        left.remove(best[2])
        behind |= touched[best[2]]
    return order


def _subsets(size: int, most: int) -> int:
    """How many subsets of at most `most` of `size` things."""
    total, term = 0, 1
    for f in range(min(size, most) + 1):
        total += term
        term = term * (size - f) // (f + 1)
    return total


def _falling(n: int, k: int) -> int:
    """n (n-1) ... (n-k+1)."""
    out = 1
    for i in range(k):
        out *= n - i
    return out
