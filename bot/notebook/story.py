"""The story of a game, posted in its thread when it ends: worked out off the event loop
from the whole log (engine.notebook.story), then queued like any message (its key makes a
second telling of the same game a no-op)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from bot.payload import User, Users, labels_of
from engine.notebook.story import Accused, Story, story_of
from engine.state import Game
from storage.service import Store

log = logging.getLogger(__name__)


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


async def tell_story(store: Store, tell: Callable[..., Awaitable[None]], game_id: int) -> None:
    """Work the story out and queue it in the game's thread with `tell` (Services.tell);
    logged, never raised: the game's end is told already."""
    try:
        ref = await store.game(game_id)
        game = await store.load(game_id)
        events = await store.events(game_id)
        if ref is None or game.envelope is None:
            return
        story = await asyncio.to_thread(story_of, events)
        await tell(
            ref.chat_id,
            "story.post",
            story_args(story, game),
            topic_id=ref.topic_id,
            key=f"g{game_id}:story",
            labels=labels_of(game.pack),
        )
    except Exception:
        log.exception("the story of game %s could not be told", game_id)
