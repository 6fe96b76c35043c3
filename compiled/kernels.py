"""The deal count's two passes in machine code (numba): the plan of
engine/notebook/count.py, its states packed the same way, each count kept as its residues
modulo four primes (compiled/deal_count.py puts them together again).

The forward pass fills a table per step: open addressing, a record of the state and its
four residues. It writes, for every state, which of the step's moves it keeps (a bit per
move) and where each kept move went (an *edge*), so the backward pass finds each next
state without looking it up. Each step's table is then laid out as that step's layer, in
table order.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numpy.typing import NDArray

Ints = NDArray[np.int64]
Layers = tuple[Ints, Ints, Ints, NDArray[np.int32], Ints, Ints]

# four primes under 2^31: a product of two residues fits in 62 bits, and so does a sum of
# up to 2^31 residues or such products reduced (the passes reduce their sums only once)
P0, P1, P2, P3 = 2147483647, 2147483629, 2147483587, 2147483579
PRIMES = (P0, P1, P2, P3)
_SCRAMBLE = np.int64(-7046029254386353131)  # an odd 64-bit number: Fibonacci hashing
_EMPTY = -1  # a packed state is never negative (its top bit stays clear)


@njit(cache=True, nogil=True, error_model="numpy")
def forward(
    start: int,
    guards: int,
    opens: Ints,
    closes: Ints,
    limits: Ints,
    keeps: Ints,
    units: Ints,
    move_at: Ints,
) -> Layers:
    """Each step's states and their ways (layers: keys, values, where each step begins),
    each kept (state, move)'s next state as an index into the next step (edges, and where
    each step's begin), and each state's kept moves (a bit per move of its step). Runs
    without Python's lock: a count in a worker thread holds up nothing else."""
    steps = opens.shape[0]
    keys = np.empty(1 << 12, np.int64)
    values = np.empty((1 << 12, 4), np.int64)
    layer_at = np.zeros(steps + 2, np.int64)
    edges = np.empty(1 << 12, np.int32)
    edge_at = np.zeros(steps + 1, np.int64)
    keys[0] = start
    values[0, :] = 1
    layer_at[1] = 1
    table = np.empty((1 << 10, 5), np.int64)
    masks = np.zeros(1 << 12, np.int64)
    place = np.empty(1 << 10, np.int32)
    edge_count = 0
    for step in range(steps):
        first, last = layer_at[step], layer_at[step + 1]
        moves = move_at[step + 1] - move_at[step]
        if edge_count + (last - first) * moves > edges.shape[0]:
            grown = np.empty(2 * (edge_count + (last - first) * moves), np.int32)
            grown[:edge_count] = edges[:edge_count]
            edges = grown
        opened, closed, limit = opens[step], closes[step], limits[step]
        size = 16
        while size < 2 * (last - first):
            size *= 2
        while True:  # a table three quarters full starts the step again at twice the size
            if size > table.shape[0]:
                table = np.empty((size, 5), np.int64)
                place = np.empty(size, np.int32)
            table[:size, 0] = _EMPTY
            mask = size - 1
            used = 0
            edge = edge_count
            full = False
            for i in range(first, last):
                state = keys[i] | opened
                w0, w1, w2, w3 = values[i, 0], values[i, 1], values[i, 2], values[i, 3]
                kept = 0
                for move in range(move_at[step], move_at[step + 1]):
                    moved = (state & keeps[move]) - units[move]
                    if (moved & (limit - moved) & guards) != guards or moved & closed:
                        continue
                    kept |= 1 << (move - move_at[step])
                    h = ((moved * _SCRAMBLE) >> 20) & mask
                    while table[h, 0] != moved and table[h, 0] != _EMPTY:
                        h = (h + 1) & mask
                    if table[h, 0] == _EMPTY:
                        table[h, 0] = moved
                        table[h, 1], table[h, 2], table[h, 3], table[h, 4] = w0, w1, w2, w3
                        used += 1
                    else:  # summed as they come (each under 2^31), reduced once laid out
                        table[h, 1] += w0
                        table[h, 2] += w1
                        table[h, 3] += w2
                        table[h, 4] += w3
                    edges[edge] = h
                    edge += 1
                    if 4 * used > 3 * size:
                        full = True
                        break
                masks[i] = kept
                if full:
                    break
            if not full:
                break
            size *= 2
        if last + used > masks.shape[0]:
            grown_masks = np.zeros(2 * (last + used), np.int64)
            grown_masks[:last] = masks[:last]
            masks = grown_masks
        if last + used > keys.shape[0]:
            grown_keys = np.empty(2 * (last + used), np.int64)
            grown_keys[:last] = keys[:last]
            keys = grown_keys
            grown_values = np.empty((2 * (last + used), 4), np.int64)
            grown_values[:last] = values[:last]
            values = grown_values
        j = last
        for h in range(size):
            if table[h, 0] != _EMPTY:
                keys[j] = table[h, 0]
                values[j, 0], values[j, 1] = table[h, 1] % P0, table[h, 2] % P1
                values[j, 2], values[j, 3] = table[h, 3] % P2, table[h, 4] % P3
                place[h] = j - last
                j += 1
        for k in range(edge_count, edge):
            edges[k] = place[edges[k]]
        edge_count = edge
        edge_at[step + 1] = edge
        layer_at[step + 2] = j
    return keys, values, layer_at, edges, edge_at, masks


@njit(cache=True, nogil=True, error_model="numpy")
def backward(
    guards: int,
    keys: Ints,
    values: Ints,
    layer_at: Ints,
    edges: NDArray[np.int32],
    edge_at: Ints,
    masks: Ints,
    slots: Ints,
    move_at: Ints,
    slot_count: int,
) -> tuple[Ints, Ints]:
    """The residues of the deals in all (`total`) and, for each step and slot, of those
    that put that step's card in that slot (`cells`)."""
    steps = edge_at.shape[0] - 1
    total = np.zeros(4, np.int64)
    cells = np.zeros((steps, slot_count, 4), np.int64)
    end = -1
    for i in range(layer_at[steps], layer_at[steps + 1]):
        if keys[i] == guards:
            end = i
    if end < 0:
        return total, cells
    total[:] = values[end]
    ahead = np.zeros((layer_at[steps + 1] - layer_at[steps], 4), np.int64)
    ahead[end - layer_at[steps], :] = 1
    for step in range(steps - 1, -1, -1):
        first, last = layer_at[step], layer_at[step + 1]
        finish = np.empty((last - first, 4), np.int64)
        edge = edge_at[step]
        for i in range(first, last):
            w0, w1, w2, w3 = values[i, 0], values[i, 1], values[i, 2], values[i, 3]
            r0 = r1 = r2 = r3 = 0
            kept = masks[i]
            for move in range(move_at[step], move_at[step + 1]):
                if not (kept >> (move - move_at[step])) & 1:
                    continue
                to = edges[edge]
                edge += 1
                a0, a1, a2, a3 = ahead[to, 0], ahead[to, 1], ahead[to, 2], ahead[to, 3]
                r0 += a0
                r1 += a1
                r2 += a2
                r3 += a3
                slot = slots[move]
                # summed as they come (each under 2^31, fewer than 2^32 of them), reduced below
                cells[step, slot, 0] += w0 * a0 % P0
                cells[step, slot, 1] += w1 * a1 % P1
                cells[step, slot, 2] += w2 * a2 % P2
                cells[step, slot, 3] += w3 * a3 % P3
            k = i - first
            finish[k, 0], finish[k, 1] = r0 % P0, r1 % P1
            finish[k, 2], finish[k, 3] = r2 % P2, r3 % P3
        ahead = finish
    cells[:, :, 0] %= P0
    cells[:, :, 1] %= P1
    cells[:, :, 2] %= P2
    cells[:, :, 3] %= P3
    return total, cells
