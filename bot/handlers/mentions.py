"""The people a command names: @usernames (known to the bot once they wrote in a chat it is
in, or started it), text mentions, or the author of the message it replies to."""

from __future__ import annotations

from dataclasses import dataclass

from telegram import Message
from telegram.constants import MessageEntityType

from bot.context import CustomContext


@dataclass(frozen=True)
class Mention:
    """A person named in a message: `typed` as written ("@bob", or a text mention's text),
    `user_id` None when no person the bot knows goes by that username."""

    typed: str
    user_id: int | None


async def mentions(context: CustomContext, message: Message) -> list[Mention]:
    """The @usernames and text mentions of a message, in order."""
    found: list[Mention] = []
    for entity, text in message.parse_entities().items():
        if entity.type == MessageEntityType.TEXT_MENTION and entity.user is not None:
            found.append(Mention(text, entity.user.id))
        elif entity.type == MessageEntityType.MENTION:
            username = text.lstrip("@")
            found.append(Mention(text, await context.services.directory.user_by_username(username)))
    return found


async def named_people(context: CustomContext, message: Message) -> list[int]:
    """People named in a message: @usernames, text mentions, or the replied-to author."""
    found = [m.user_id for m in await mentions(context, message) if m.user_id is not None]
    replied = message.reply_to_message
    topic_start = replied is not None and (
        replied.forum_topic_created is not None or replied.message_id == message.message_thread_id
    )
    if found or replied is None or topic_start:
        return found  # in a forum topic every message "replies" to the topic's first one
    if replied.from_user is not None and not replied.from_user.is_bot:
        found.append(replied.from_user.id)
    return found


async def unknown_mention(context: CustomContext, message: Message) -> str | None:
    """The first @username of the message that no person the bot knows goes by (without
    its "@"), if any: a command that names someone the bot cannot place says so."""
    return next(
        (m.typed.lstrip("@") for m in await mentions(context, message) if m.user_id is None),
        None,
    )
