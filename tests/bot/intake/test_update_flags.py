"""An update's flags (bot/updates.py `UpdateFlags`): what its flood gate set reaches its
handlers on their context, and a context outside an update holds nothing back."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from telegram import Chat, Message, Update, User
from telegram.ext import Application

from bot.context import CONTEXT_TYPES, CustomContext
from bot.updates import KeyedUpdateProcessor, UpdateFlags


def _app(processor: KeyedUpdateProcessor) -> Application[Any, CustomContext, Any, Any, Any, Any]:
    """An application (never started) whose updates this processor handles."""
    return (
        Application.builder()
        .token("1:test")
        .context_types(CONTEXT_TYPES)
        .concurrent_updates(processor)
        .build()
    )


def _command(update_id: int) -> Update:
    when = datetime(2026, 1, 1, tzinfo=UTC)
    chat = Chat(-100, Chat.SUPERGROUP)
    return Update(update_id, message=Message(1, when, chat, from_user=User(1, "A", False)))


async def test_the_flags_the_gate_set_are_on_the_handlers_context() -> None:
    processor = KeyedUpdateProcessor(8)
    app = _app(processor)
    seen: list[UpdateFlags] = []

    async def admit(update: object) -> bool:
        processor.flags_of(update).cooldown_ahead = 300.0  # as the gate on the brink
        return True

    async def handle(update: Update) -> None:
        context = CustomContext.from_update(update, app)
        seen.append(context.flags)
        context.flags.answered("settings.defaults_saved")  # a saved setting: accepted

    processor.admit = admit
    update = _command(7)
    async with processor:
        await processor.process_update(update, handle(update))
    assert [(f.cooldown_ahead, f.accepted, f.held_back) for f in seen] == [(300.0, True, False)]
    assert processor.flags_of(update) is not seen[0]  # let go once the update was handled


async def test_a_context_outside_an_update_holds_nothing_back() -> None:
    app = _app(KeyedUpdateProcessor(8))
    context = CustomContext.from_update(_command(8), app)
    assert context.flags == UpdateFlags() and not context.flags.held_back
    assert CustomContext(app).flags == UpdateFlags()  # a job's
