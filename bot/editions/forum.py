"""The forum format: a game over days with addressed suggestions; no board, no turns."""

from __future__ import annotations

from bot.editions.base import Edition

FORUM = Edition(
    key="forum",
    words=("forum",),
    rules="rules.text",
    started="game.started",
)
