"""The bot's own membership of a group: posts held while it was out go out when it is back;
added, it introduces itself, and says what rights it lacks (bot/handlers/arrival.py)."""

from __future__ import annotations

import logging

from telegram import ChatMember, ChatMemberRestricted, Update
from telegram.constants import ChatMemberStatus, ChatType

from bot.context import CustomContext
from bot.handlers.arrival import arrived

log = logging.getLogger(__name__)
PRESENT = (ChatMemberStatus.MEMBER, ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.OWNER)


async def bot_membership(update: Update, context: CustomContext) -> None:
    """my_chat_member: added back to a group, the bot sends what it owes there, in order;
    then its introduction and the notice of what it lacks, when owed.

    While the bot is out, the sender parks the group's first post it could not deliver
    (403), which holds the rest; the game goes on, and nothing is lost or sent twice."""
    change = update.my_chat_member
    if change is None or change.chat.type not in (ChatType.GROUP, ChatType.SUPERGROUP):
        return
    chat_id, status = change.chat.id, change.new_chat_member.status
    if not _can_post(change.new_chat_member):
        log.warning("the bot is no longer in chat %s (%s)", chat_id, status)
        return
    svc = context.services
    released = await svc.store.outbox.release_chat(chat_id, svc.now())
    if released:
        log.info("the bot is back in chat %s: %s held messages released", chat_id, released)
        svc.outbox_ready.set()
    await arrived(context, update, chat_id, change.new_chat_member)


def _can_post(member: ChatMember) -> bool:
    """In the chat and not muted (a restricted member may still be allowed to send)."""
    if member.status in PRESENT:
        return True
    return (
        isinstance(member, ChatMemberRestricted) and member.is_member and member.can_send_messages
    )
