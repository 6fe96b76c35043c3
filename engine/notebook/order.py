"""The order in which the count deals the open cards, and which bit of its state each
open clause takes.

A clause takes a bit from its first card to its last; the fewer clauses are open at
once, the fewer states the count has. So the cards are taken greedily, each time the one
that opens the fewest clauses less those it closes, less how much nearer it brings its
clauses to their end (a clause with k cards left comes 1/(k-1) nearer; the weighing was
chosen on simulated games and on games of refutations alone), and the cards in no clause
last. Clauses whose spans do not overlap share a bit.
"""

from __future__ import annotations

from collections.abc import Sequence


def card_order(cards: int, clauses: Sequence[Sequence[int]]) -> list[int]:
    """The cards (0 .. cards-1) in dealing order, given each clause's cards."""
    clauses_of: list[list[int]] = [[] for _ in range(cards)]
    for j, members in enumerate(clauses):
        for card in set(members):
            clauses_of[card].append(j)
    left = [len(set(members)) for members in clauses]
    started = [False] * len(clauses)
    waiting = {card for card in range(cards) if clauses_of[card]}
    order: list[int] = []
    while waiting:
        best: tuple[float, int] | None = None
        for card in waiting:
            opened = sum(1 for j in clauses_of[card] if not started[j])
            closed = sum(1 for j in clauses_of[card] if left[j] == 1)
            nearer = sum(1 / (left[j] - 1) if left[j] > 1 else 1 for j in clauses_of[card])
            key = (opened - closed - nearer, card)
            if best is None or key < best:
                best = key
        assert best is not None
        chosen = best[1]
        waiting.discard(chosen)
        order.append(chosen)
        for j in clauses_of[chosen]:
            started[j] = True
            left[j] -= 1
    order.extend(card for card in range(cards) if not clauses_of[card])
    return order


def shared_bits(spans: Sequence[tuple[int, int]]) -> list[int]:
    """A bit for each span (first step, last step): overlapping spans never share one."""
    bit = [0] * len(spans)
    free_from: list[int] = []  # each bit's first step at which it is free again
    for j in sorted(range(len(spans)), key=lambda j: spans[j]):
        first, last = spans[j]
        for b, free in enumerate(free_from):
            if free <= first:
                bit[j] = b
                free_from[b] = last + 1
                break
        else:
            bit[j] = len(free_from)
            free_from.append(last + 1)
    return bit
