"""The deal count's two passes in machine code (numba): the plan of
engine/notebook/count.py, its states packed the same way, each count kept as its residues
modulo three or four primes (compiled/deal_count.py chooses how many and puts them together
again).

Each state also has a *place*: its slots' rooms as the digits of one number (each slot's
room from 0 to its start, one slot left out: the others and the cards left give its room),
times two to the power of the clause bits, plus those bits. A move takes the same amount
off every place and clears clause bits, so the states of a step, kept in the order of their
places, go to the next step's nearly in order (exactly, for a move that clears none). The
forward pass marks the next step's places in a bitmap (a bit per place; a second bitmap, a
bit per word of the first, so that only the words marked are read), ranks them by counting
the bits set before each, and adds each state's ways at those ranks: memory is walked
nearly in order, not at random as through a hash table. It writes, for every state, which
of the step's moves it keeps (a bit per move) and where each kept move went (an *edge*, the
next state's rank), so the backward pass walks the same edges without a lookup.

The arrays of a count are its *work* (keys, places, ways, edges, kept moves, the two
bitmaps, the words marked, ranks, finish, ahead): passed in and given back, grown where a
count needs more, so that a process counting again reuses the memory it has (fresh memory
costs a fault a page). The bitmaps are all zeros between counts.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit
from numpy.typing import NDArray

from compiled.bits import set_bits, trailing_zeros

Ints = NDArray[np.int64]
Work = tuple[Ints, Ints, Ints, NDArray[np.int32], Ints, Ints, Ints, Ints, Ints, Ints, Ints]
Layers = tuple[Ints, Ints, Ints, NDArray[np.int32], Ints, Ints]
# the forward pass's plan: the start's state and place, how many places, the guard bits;
# by step, the clause bits it opens, those it closes, the rooms' limits; by move, the bits
# it keeps, what it takes off a state and off a place; where each step's moves begin
Steps = tuple[int, int, int, int, Ints, Ints, Ints, Ints, Ints, Ints, Ints]

# primes under 2^31: a product of two residues fits in 62 bits, and a sum of fewer than
# 2^31 residues or reduced products in 63 (a state's ways are summed over the states before
# it, fewer than deal_count.MOST_PLACES, and reduced once)
THREE_PRIMES = (2147483647, 2147483629, 2147483587)
FOUR_PRIMES = (2147483647, 2147483629, 2147483587, 2147483579)


def new_work() -> Work:
    """Work for a first count (each pass grows what it needs)."""
    small = np.zeros(1 << 10, np.int64)
    return (
        small.copy(),
        small.copy(),
        small.copy(),
        np.zeros(1 << 10, np.int32),
        small.copy(),
        small.copy(),
        small.copy(),
        small.copy(),
        small.copy(),
        small.copy(),
        small.copy(),
    )


@njit(cache=True, nogil=True, error_model="numpy")
def _at_least(array: NDArray[Any], used: int, need: int) -> NDArray[Any]:
    """`array`, or a copy of its first `used` items half as long again as `need`."""
    if array.shape[0] >= need:
        return array
    grown = np.zeros(need + need // 2, array.dtype)
    grown[:used] = array[:used]
    return grown


@njit(cache=True, nogil=True, error_model="numpy")
def _forward(primes: tuple[int, ...], steps_of: Steps, work: Work) -> tuple[Layers, Work]:
    """Each step's states and their ways (layers: keys, ways, where each step begins),
    each kept (state, move)'s next state as a rank in the next step (edges, and where each
    step's edges begin), and each state's kept moves (a bit per move of its step); and the
    work, grown. Runs without Python's lock: a count in a worker thread holds up nothing
    else."""
    start, start_place, places_count, guards = steps_of[:4]
    opens, closes, limits, keeps, units, shifts, move_at = steps_of[4:]
    keys, places, ways, edges, masks, bitmap, summary, marked, ranks, finish, ahead = work
    columns = len(primes)
    steps = opens.shape[0]
    words = (places_count >> 6) + 1
    if bitmap.shape[0] < words:  # fresh zeros: only the pages marked are ever touched
        bitmap = np.zeros(words, np.int64)
        summary = np.zeros((words >> 6) + 1, np.int64)
        ranks = np.empty(words, np.int64)
    layer_at = np.zeros(steps + 2, np.int64)
    edge_at = np.zeros(steps + 1, np.int64)
    keys[0], places[0] = start, start_place
    ways[:columns] = 1
    layer_at[1] = 1
    edge_count = 0
    for step in range(steps):
        first, last = layer_at[step], layer_at[step + 1]
        first_move, end_move = move_at[step], move_at[step + 1]
        opened, closed, limit = opens[step], closes[step], limits[step]
        masks = _at_least(masks, first, last)
        # a move is kept when no room goes below zero nor over its limit (both guard bits
        # stay set) and it leaves no clause that ends here unsatisfied
        low, high, kept_count = words, -1, 0
        for i in range(first, last):
            state, place = keys[i] | opened, places[i] | opened
            kept = 0
            for move in range(first_move, end_move):
                moved = (state & keeps[move]) - units[move]
                if (moved & (limit - moved) & guards) != guards or moved & closed:
                    continue
                kept |= 1 << (move - first_move)
                to = (place & keeps[move]) - shifts[move]
                word = to >> 6
                bitmap[word] |= 1 << (to & 63)
                summary[word >> 6] |= 1 << (word & 63)
                low, high = min(low, word), max(high, word)
            masks[i] = kept
            kept_count += set_bits(kept)
        # the words marked, in order; each word's rank: the places marked before it
        marked = _at_least(marked, 0, kept_count)
        marked_count = 0
        for group in range(low >> 6, (high >> 6) + 1):
            bits = summary[group]
            summary[group] = 0
            while bits:
                bit = trailing_zeros(bits)
                bits ^= 1 << bit
                marked[marked_count] = (group << 6) + bit
                marked_count += 1
        count = 0
        for word in marked[:marked_count]:
            ranks[word] = count
            count += set_bits(bitmap[word])
        edges = _at_least(edges, edge_count, edge_count + kept_count)
        keys = _at_least(keys, last, last + count)
        places = _at_least(places, last, last + count)
        ways = _at_least(ways, last * columns, (last + count) * columns)
        for word in marked[:marked_count]:
            at, bits = last + ranks[word], bitmap[word]
            while bits:
                bit = trailing_zeros(bits)
                bits ^= 1 << bit
                places[at] = (word << 6) + bit
                at += 1
        after = last + count
        ways[last * columns : after * columns] = 0
        edge = edge_count
        for i in range(first, last):
            state, place = keys[i] | opened, places[i] | opened
            kept = masks[i]
            while kept:
                bit = trailing_zeros(kept)
                kept ^= 1 << bit
                move = first_move + bit
                to = (place & keeps[move]) - shifts[move]
                word = to >> 6
                rank = ranks[word] + set_bits(bitmap[word] & ~(-1 << (to & 63)))
                at = last + rank
                keys[at] = (state & keeps[move]) - units[move]
                for column in range(columns):  # summed as they come, reduced below
                    ways[at * columns + column] += ways[i * columns + column]
                edges[edge] = rank
                edge += 1
        for word in marked[:marked_count]:
            bitmap[word] = 0
        for at in range(last * columns, after * columns, columns):
            for column in range(columns):
                ways[at + column] %= primes[column]
        edge_count = edge
        edge_at[step + 1] = edge
        layer_at[step + 2] = after
    layers = (keys, ways, layer_at, edges, edge_at, masks)
    return layers, (keys, places, ways, edges, masks, bitmap, summary, marked, ranks, finish, ahead)


@njit(cache=True, nogil=True, error_model="numpy")
def _backward(
    primes: tuple[int, ...],
    guards: int,
    layers: Layers,
    slots: Ints,
    move_at: Ints,
    slot_count: int,
    work: Work,
) -> tuple[Ints, Ints, Work]:
    """The residues of the deals in all (`total`) and, for each step and slot, of those
    that put that step's card in that slot (`cells`); and the work, grown."""
    keys, ways, layer_at, edges, edge_at, masks = layers
    columns = len(primes)
    steps = edge_at.shape[0] - 1
    total = np.zeros(columns, np.int64)
    cells = np.zeros((steps, slot_count, columns), np.int64)
    end = -1
    for i in range(layer_at[steps], layer_at[steps + 1]):
        if keys[i] == guards:
            end = i
    if end < 0:
        return total, cells, work
    total[:] = ways[end * columns : (end + 1) * columns]
    widest = np.max(layer_at[1:] - layer_at[:-1]) * columns
    finish, ahead = _at_least(work[9], 0, widest), _at_least(work[10], 0, widest)
    ahead[:widest] = 0
    ahead[(end - layer_at[steps]) * columns : (end - layer_at[steps] + 1) * columns] = 1
    for step in range(steps - 1, -1, -1):
        first, last = layer_at[step], layer_at[step + 1]
        finish[: (last - first) * columns] = 0
        edge = edge_at[step]
        first_move = move_at[step]
        for i in range(first, last):
            kept = masks[i]
            at = (i - first) * columns
            while kept:
                bit = trailing_zeros(kept)
                kept ^= 1 << bit
                to = edges[edge] * columns
                edge += 1
                slot = slots[first_move + bit]
                for column in range(columns):  # summed as they come, reduced below
                    found = ahead[to + column]
                    finish[at + column] += found
                    cells[step, slot, column] += ways[i * columns + column] * found % primes[column]
            for column in range(columns):
                finish[at + column] %= primes[column]
        finish, ahead = ahead, finish
    for column in range(columns):
        cells[:, :, column] %= primes[column]
    return total, cells, (*work[:9], finish, ahead)


# The passes for three primes and for four: the primes known when compiling, so that a
# remainder is a multiplication, not a division.
@njit(cache=True, nogil=True, error_model="numpy")
def forward_3(steps_of: Steps, work: Work) -> tuple[Layers, Work]:
    return _forward(THREE_PRIMES, steps_of, work)


@njit(cache=True, nogil=True, error_model="numpy")
def forward_4(steps_of: Steps, work: Work) -> tuple[Layers, Work]:
    return _forward(FOUR_PRIMES, steps_of, work)


@njit(cache=True, nogil=True, error_model="numpy")
def backward_3(
    guards: int, layers: Layers, slots: Ints, move_at: Ints, slot_count: int, work: Work
) -> tuple[Ints, Ints, Work]:
    return _backward(THREE_PRIMES, guards, layers, slots, move_at, slot_count, work)


@njit(cache=True, nogil=True, error_model="numpy")
def backward_4(
    guards: int, layers: Layers, slots: Ints, move_at: Ints, slot_count: int, work: Work
) -> tuple[Ints, Ints, Work]:
    return _backward(FOUR_PRIMES, guards, layers, slots, move_at, slot_count, work)
