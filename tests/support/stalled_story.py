"""`python -m tests.support.stalled_story run`: the real `whodunit`, except that a game's
story never gets composed (it waits for ever). A process killed after a game's end is then
killed between the end and its story for sure, never after the story was queued."""

from __future__ import annotations

import asyncio
import sys
from typing import Any

import bot.owed
from bot.cli import main
from storage.service import Store


async def _never(store: Store, game_id: int) -> dict[str, Any] | None:
    """A story that takes for ever to work out."""
    await asyncio.Event().wait()
    return None


if __name__ == "__main__":
    vars(bot.owed)["story_payload"] = _never  # in place of the real one
    sys.exit(main())
