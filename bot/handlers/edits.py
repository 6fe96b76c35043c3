"""Edited commands: never read (the original message stands, nothing changes in any game).

The person is told once per edited message, in private: the notice's outbox key is the
chat's and the message's (`edit:{chat}:{message}`), so editing the message again, a flood
of edits, or the same update delivered twice stores no second notice (the outbox keeps one
row per key; `storage/messages_owed.py`). Someone who never started the bot finds the
notice waiting when they do, as every private message does (`bot/delivery/unreachable.py`).
Edits by bots, by channels and by anonymous admins (sent as the group) are not answered,
nor edits of plain messages (no handler is registered for them, `bot/app.py`). The notice
is held back like any reply while the flood guard quiets the person (`bot/flood.py`)."""

from __future__ import annotations

from telegram import Update

from bot.context import CustomContext
from bot.handlers.common import remember, where
from bot.observe import note_answer


async def edited_command(update: Update, context: CustomContext) -> None:
    """A command the person edited: a private notice that edits are not read, once."""
    message = update.edited_message
    w = where(update)
    if message is None or message.sender_chat is not None or w is None:
        return  # a channel's, an anonymous admin's (sent as the group) or a bot's edit
    await remember(context, w.user)
    msg = "edit.not_read_here" if w.private else "edit.not_read"
    note_answer(msg)
    if context.flags.held_back:
        return
    svc = context.services
    command = (message.text or "")[: message.entities[0].length].partition("@")[0]
    args = {"command": command}
    if not w.private:
        args["chat"] = await svc.store.chats.label(w.chat.id, w.topic_id) or w.chat.title or ""
    await svc.tell(
        w.user.id,
        msg,
        args,
        user_id=w.user.id,
        key=f"edit:{w.chat.id}:{message.message_id}",
    )
