"""The story of a game, posted in its thread when it ends: owed by the end's own write (an
outbox row to compose, storage.owed), worked out after the commit off the event loop from
the whole log (engine.notebook.story) by bot/owed.py."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.payload import Payload, User, Users, labels_of
from engine.notebook.story import Accused, Story, story_of
from engine.state import Game
from storage.service import Store


def story_args(story: Story, game: Game) -> dict[str, Any]:
    """The story as message arguments: seats as people, cards as ids."""
    user = {p.seat: p.user for p in game.players}

    def who(seat: int | None) -> User | None:
        return User(user[seat]) if seat is not None and seat in user else None

    entries: list[dict[str, Any]] = []
    for entry in story.entries:
        if isinstance(entry, Accused):
            entries.append(
                {
                    "accused": who(entry.seat),
                    "when": entry.when,
                    "cards": list(entry.cards),
                    "correct": entry.correct,
                }
            )
            continue
        entries.append(
            {
                "suggester": who(entry.suggester),
                "when": entry.when,
                "cards": list(entry.cards),
                "target": who(entry.target),
                "shown_by": who(entry.shown_by),
                "card": entry.card,
                "by_gm": entry.by_gm,
                "passed": Users(tuple(user[s] for s in entry.passed)),
                "voided": entry.voided,
            }
        )
    named = [{"player": who(seat), "when": when} for seat, when in story.named_from]
    return {"table": story.table, "entries": entries, "named": named}


async def story_payload(store: Store, game_id: int) -> dict[str, Any] | None:
    """The story post's payload, worked out from the whole log in a thread (a replay of the
    game through the notebook); None when the game has no story (gone, or never dealt)."""
    ref = await store.game(game_id)
    if ref is None:
        return None
    game = await store.load(game_id)
    if game.envelope is None:
        return None
    events = await store.events(game_id)
    story = await asyncio.to_thread(story_of, events)
    return Payload("story.post", story_args(story, game), labels=labels_of(game.pack)).to_row()
