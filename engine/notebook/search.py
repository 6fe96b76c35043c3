"""Finding deals of the open cards (engine/notebook/residue.py) without counting them:
which slots each card can lie in, so which cells are forced, in far less time than the
count takes when many seats are open.

One deal is found by search. Each step propagates (a card with one slot left lies there; a
slot whose room is filled, or that needs every card that may still go there; a clause
with one way left), then matches the cards to the slots' rooms (augmenting paths; none
means no deal). If the matching satisfies every clause it is a deal; else the search
branches on a clause it breaks: its first way, or not that and the second, and so on.

A cell a found deal makes true is possible; a cell never found true after a search for a
deal with it is impossible. Each search prefers slots not yet seen for each card, so one
deal settles many cells. A budget of search steps keeps a bad case bounded: past it the
caller counts instead (`Exhausted`).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.notebook.residue import Residue


class Exhausted(Exception):
    """The search went over its budget of steps."""


class DealSearch:
    """Searches for deals of one residue within a budget of steps (over all searches)."""

    def __init__(self, residue: Residue, budget: int) -> None:
        self.rooms = [slot.room for slot in residue.slots]
        self.domains = [sum(1 << slot for slot in set(domain)) for domain in residue.domains]
        self.clauses = [tuple(sorted(set(clause))) for clause in residue.clauses]
        self.budget = budget
        self.steps = 0
        self.prefer: list[int] = [0] * len(self.domains)  # slots seen: tried last
        self._orders: dict[tuple[int, int], list[int]] = {}

    def deal(self, fixed: tuple[int, int] | None = None) -> list[int] | None:
        """A deal (each open card's slot), with card `fixed[0]` in slot `fixed[1]` if
        given; None when there is none."""
        domains = list(self.domains)
        if fixed is not None:
            card, slot = fixed
            if not domains[card] >> slot & 1:
                return None
            domains[card] = 1 << slot
        if any(not clause for clause in self.clauses):
            return None
        return self._explore(domains, None)

    def _explore(self, domains: list[int], hint: list[int] | None) -> list[int] | None:
        self.steps += 1
        if self.steps > self.budget:
            raise Exhausted
        if not self._tighten(domains):
            return None
        where = self._match(domains, hint)
        if where is None:
            return None
        broken: tuple[tuple[int, int], ...] | None = None
        for clause in self.clauses:
            if any(where[card] == slot for card, slot in clause):
                continue
            live = tuple((card, slot) for card, slot in clause if domains[card] >> slot & 1)
            if broken is None or len(live) < len(broken):
                broken = live
        if broken is None:
            return where
        for i, (card, slot) in enumerate(broken):
            branch = list(domains)
            for other, other_slot in broken[:i]:
                branch[other] &= ~(1 << other_slot)
            branch[card] = 1 << slot
            found = self._explore(branch, where)
            if found is not None:
                return found
        return None

    def _tighten(self, domains: list[int]) -> bool:
        """Propagate in place until nothing changes; False on a contradiction."""
        rooms = self.rooms
        changed = True
        while changed:
            changed = False
            for slot, room in enumerate(rooms):
                bit = 1 << slot
                can = [card for card, domain in enumerate(domains) if domain & bit]
                fixed = sum(1 for card in can if domains[card] == bit)
                if fixed > room or len(can) < room:
                    return False
                if len(can) == fixed:
                    continue
                if fixed == room:
                    for card in can:
                        if domains[card] != bit:
                            domains[card] &= ~bit
                    changed = True
                elif len(can) == room:
                    for card in can:
                        domains[card] = bit
                    changed = True
            if 0 in domains:
                return False
            for clause in self.clauses:
                live = [(card, slot) for card, slot in clause if domains[card] >> slot & 1]
                if not live:
                    return False
                if len(live) == 1 and domains[live[0][0]] != 1 << live[0][1]:
                    domains[live[0][0]] = 1 << live[0][1]
                    changed = True
        return True

    def _ordered(self, domain: int, seen: int) -> list[int]:
        """The domain's slots, those not seen yet first."""
        key = (domain, seen & domain)
        found = self._orders.get(key)
        if found is None:
            slots = range(len(self.rooms))
            found = [slot for slot in slots if (domain & ~seen) >> slot & 1]
            found += [slot for slot in slots if (domain & seen) >> slot & 1]
            self._orders[key] = found
        return found

    def _match(self, domains: list[int], hint: Sequence[int] | None) -> list[int] | None:
        """Each card to a slot of its domain within the rooms (a slot's room is exactly
        filled, as the rooms add up to the cards); None when no such matching exists."""
        rooms, prefer = self.rooms, self.prefer
        slots = len(rooms)
        where = [-1] * len(domains)
        holders: list[list[int]] = [[] for _ in range(slots)]
        ordered = self._ordered
        choices = [ordered(domain, prefer[card]) for card, domain in enumerate(domains)]
        if hint is not None:
            for card, slot in enumerate(hint):
                if domains[card] >> slot & 1 and len(holders[slot]) < rooms[slot]:
                    where[card] = slot
                    holders[slot].append(card)
        seen = 0

        def augment(card: int) -> bool:
            nonlocal seen
            for slot in choices[card]:
                if not seen >> slot & 1 and len(holders[slot]) < rooms[slot]:
                    seen |= 1 << slot
                    where[card] = slot
                    holders[slot].append(card)
                    return True
            for slot in choices[card]:
                if seen >> slot & 1:
                    continue
                seen |= 1 << slot
                for i, other in enumerate(holders[slot]):
                    if augment(other):
                        holders[slot][i] = card
                        where[card] = slot
                        return True
            return False

        for card in sorted(range(len(domains)), key=lambda c: len(choices[c])):
            if where[card] < 0:
                seen = 0
                if not augment(card):
                    return None
        return where


def possible_slots(residue: Residue, budget: int) -> list[int] | None:
    """For each open card, the slots some deal puts it in (a bit mask); None when no
    deal fits. Exhausted when the searches go over `budget` steps. Cards that no clause
    names and that may go to the same slots are interchangeable: the first of them is
    searched for, the others may go where it may."""
    search = DealSearch(residue, budget)
    first = search.deal()
    if first is None:
        return None
    possible = [1 << slot for slot in first]
    search.prefer = possible
    twin = _twins(search)
    for card, domain in enumerate(search.domains):
        if twin[card] != card:
            continue
        for slot in range(len(search.rooms)):
            if not domain >> slot & 1 or possible[card] >> slot & 1:
                continue
            found = search.deal((card, slot))
            if found is not None:
                for other, other_slot in enumerate(found):
                    possible[other] |= 1 << other_slot
    return [possible[twin[card]] for card in range(len(possible))]


def _twins(search: DealSearch) -> list[int]:
    """For each open card, the first card interchangeable with it (itself if none)."""
    named = {card for clause in search.clauses for card, _ in clause}
    first: dict[int, int] = {}
    return [
        card if card in named else first.setdefault(domain, card)
        for card, domain in enumerate(search.domains)
    ]
