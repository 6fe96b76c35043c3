"""Chat titles and forum topic names, kept so private messages can say which game."""

from __future__ import annotations

from telegram import Message, Update
from telegram.constants import ChatType

from bot.context import CustomContext


def names_in(update: Update) -> list[tuple[int, str]]:
    """(topic id, name) pairs an update shows: the chat's title as topic 0, and a forum
    topic's name from its creation or edit, or from the creation a topic message replies to."""
    chat = update.effective_chat
    if chat is None or chat.type == ChatType.PRIVATE:
        return []
    found = [(0, chat.title)] if chat.title else []
    message = update.effective_message
    if isinstance(message, Message):
        found.extend(_topic_name(message))
    return found


def _topic_name(message: Message) -> list[tuple[int, str]]:
    thread = message.message_thread_id
    if message.forum_topic_created is not None:
        return [(thread or message.message_id, message.forum_topic_created.name)]
    edited = message.forum_topic_edited
    if edited is not None and edited.name and thread:
        return [(thread, edited.name)]
    origin = message.reply_to_message
    if message.is_topic_message and thread and origin and origin.forum_topic_created:
        return [(thread, origin.forum_topic_created.name)]
    return []


async def note_names(update: Update, context: CustomContext) -> None:
    """Store a chat's title or a topic's name when it is new to this process or changed."""
    chat = update.effective_chat
    if chat is None:
        return
    svc = context.services
    known: dict[tuple[int, int], str] = context.bot_data.setdefault("chat_names", {})
    for topic, name in names_in(update):
        if known.get((chat.id, topic)) != name:
            await svc.store.chats.set_name(chat.id, topic, name, svc.now())
            known[(chat.id, topic)] = name
