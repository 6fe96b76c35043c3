"""One settings change, typed (/settings name value) or pressed in the menu: a game's
settings through the store (`ChangeSettings`), else the chat's defaults for its next
games (checked by the engine). Either way a rule error propagates."""

from __future__ import annotations

from typing import Any

from bot.context import CustomContext
from engine import commands as cmd
from engine.formats import change_chat_defaults


async def change_settings(
    context: CustomContext,
    chat_id: int,
    game_id: int | None,
    *,
    actor: int,
    admin: bool,
    changes: dict[str, Any],
) -> None:
    """`game_id` None: the change goes to the chat's defaults (the admins' to set)."""
    svc = context.services
    if game_id is not None:
        change = cmd.ChangeSettings(actor=actor, actor_is_admin=admin, changes=changes)
        await context.run(game_id, change)
        return
    defaults = await svc.store.chats.get(chat_id)
    changed = change_chat_defaults(
        defaults.settings,
        changes,
        has_custom_pack=defaults.pack is not None,
        specs=svc.registry.specs,
    )
    await svc.store.chats.set_settings(chat_id, changed)
