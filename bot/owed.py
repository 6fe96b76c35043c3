"""Composing the messages a command owed but could not word in its transaction (rows stored
`owed`, storage.owed): the story of a game, and the achievements it earned (owed by the
ratings' taking it in, storage.achievements). Run right after such a command, and by every
scheduler sweep, so a process that died between the commit and the composing changes
nothing: the next sweep of any worker composes the row, and it is queued once."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any

from bot.achievements import achievements_payload
from bot.notebook.story import story_payload
from storage.owed import TRIES, OwedRow
from storage.service import Store

log = logging.getLogger(__name__)

Composer = Callable[[Store, int, dict[str, Any]], Awaitable[dict[str, Any] | None]]
"""Works out an owed row's payload from its game and the row's own payload (None: nothing
to tell after all)."""


async def _story(store: Store, game_id: int, owed: dict[str, Any]) -> dict[str, Any] | None:
    return await story_payload(store, game_id)


def composer_of(kind: str) -> Composer | None:
    """The composer of an owed row's `compose` kind (None: a kind this bot does not know)."""
    return {"story": _story, "achievements": achievements_payload}.get(kind)


async def compose_owed(store: Store, worker: str, now: Callable[[], datetime]) -> int:
    """Compose every owed row nobody else is composing; how many were queued by this call.
    A row that fails keeps its claim, whose lease is the back-off before the next try; after
    TRIES it is given up (settled failed, its error logged each time)."""
    queued = 0
    try:
        while rows := await store.owed.claim(worker, now()):
            for row in rows:
                queued += await _compose(store, row, now)
    except Exception:  # a database hiccup: the next sweep tries again
        log.exception("owed messages could not be composed; retried at the next sweep")
    return queued


async def _compose(store: Store, row: OwedRow, now: Callable[[], datetime]) -> int:
    kind = str(row.payload.get("compose"))
    composer = composer_of(kind)
    game_id = row.game_id if row.game_id is not None else row.payload.get("game")
    try:
        payload = await composer(store, int(game_id), row.payload) if composer and game_id else None
    except Exception:
        log.exception("the %s of game %s could not be composed (try %d)", kind, game_id, row.tries)
        if row.tries >= TRIES:
            await store.owed.give_up(row, f"{kind} failed {row.tries} times")
        return 0
    if payload is None:
        await store.owed.give_up(row, f"nothing to compose ({kind})")
        return 0
    return int(await store.owed.compose(row, payload, now()))
