"""The messages that tell a game's achievements, composed after the commit from what the
game's people earned (storage.achievements stored them, with these messages owed, in the
transaction that took the game into the ratings; bot/owed.py composes them): the post in
the game's thread lists the achievements of that game alone, and each person's private
message every one they earned in it."""

from __future__ import annotations

from typing import Any

from bot.payload import Payload, User
from engine.achievements import told_in_group
from storage.service import Store


async def achievements_payload(
    store: Store, game_id: int, owed: dict[str, Any]
) -> dict[str, Any] | None:
    """The payload of an owed achievements row: the thread's post, or (the row names a
    `user`) that person's message; None when there is nothing to tell."""
    earned = await store.achievements.of_game(game_id)
    user = owed.get("user")
    if user is None:
        by_person: dict[int, list[str]] = {}
        for e in earned:
            if told_in_group(e.key):
                by_person.setdefault(e.user_id, []).append(e.key)
        if not by_person:
            return None
        entries = [{"player": User(u), "keys": keys} for u, keys in by_person.items()]
        return Payload("achievements.thread", {"earned": entries}, game=game_id).to_row()
    keys = [e.key for e in earned if e.user_id == int(user)]
    ref = await store.game(game_id)
    if not keys or ref is None:
        return None
    label = await store.chats.label(ref.chat_id, ref.topic_id)
    return Payload(
        "achievements.mine",
        {"keys": keys, "count": len(keys), "game": game_id, "game_label": label},
        game=game_id,
    ).to_row()
