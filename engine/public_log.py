"""The public log: each event as the thread may see it, secrets removed."""

from __future__ import annotations

from typing import Any

from engine.codec import event_to_dict
from engine.events import Event, GameEnded

# Fields only their rightful reader may see, until the game ends.
PRIVATE_FIELDS: dict[str, frozenset[str]] = {
    "LobbyOpened": frozenset({"seed"}),
    "GameStarted": frozenset({"envelope"}),
    "SuggestionRefuted": frozenset({"card"}),
    "AccusationMade": frozenset({"suspect", "weapon", "place"}),
}


def public_entry(event: Event) -> dict[str, Any]:
    """An event without its secrets (hands are dropped from the deal, roles stay)."""
    data = event_to_dict(event)
    for name in PRIVATE_FIELDS.get(data["type"], frozenset()):
        data.pop(name, None)
    if data["type"] == "GameStarted":
        data["seats"] = [{"user": s["user"], "role": s["role"]} for s in data["seats"]]
    return data


def public_log(events: list[Event]) -> list[dict[str, Any]]:
    """The whole log as the thread may see it; after the end nothing is secret any more."""
    if events and isinstance(events[-1], GameEnded):
        return [event_to_dict(e) for e in events]
    return [public_entry(e) for e in events]
