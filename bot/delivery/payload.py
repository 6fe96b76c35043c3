"""The outbox payload: a message's catalog key, its arguments, and what the sender needs."""

from __future__ import annotations

from engine.cards import Pack


def labels_of(pack: Pack) -> dict[str, str] | None:
    """What a payload carries so a custom pack's cards render by name."""
    return dict(pack.labels) if pack.labels else None
