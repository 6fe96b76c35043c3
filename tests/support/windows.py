"""Counting moments in sliding windows, for the rate-limit tests."""

from __future__ import annotations


def most_in_a_window(moments: list[float], window: float) -> int:
    """The most moments in any half-open window [t, t + window)."""
    moments = sorted(moments)
    return max(
        (sum(1 for m in moments[i:] if m < start + window) for i, start in enumerate(moments)),
        default=0,
    )
