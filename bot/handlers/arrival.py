"""The bot added to a group: it introduces itself once (what it is, what it needs and why,
the chat's language as buttons, /newgame), and says once what rights it lacks there.

Both go through the outbox like every group post. Once: the chat's row remembers when the
bot last introduced itself (not again within AGAIN_AFTER, nor where a game is under way:
that group knows it) and which lacks it told (told again only when they change)."""

from __future__ import annotations

from datetime import timedelta
from types import MappingProxyType

from telegram import ChatMember, Update
from telegram.constants import ChatType

from bot import callbacks as cb
from bot.context import CustomContext
from bot.handlers.common import answer_toast, error_key, is_admin
from bot.handlers.preferences import language_rows
from bot.payload import Language, Payload
from bot.rights import Lack, lacking, told
from engine.queries import admin_refusal
from locales import LANGUAGES
from storage.chats import Welcome
from storage.messages_owed import OutboxItem

AGAIN_AFTER = timedelta(days=1)  # removed and added back within this: no second introduction
INTRODUCTION = "intro.group"
# The notice of what the bot lacks, by what it lacks (an admin's rights, or being an admin).
NOTICES = MappingProxyType(
    {
        (Lack.NO_DELETE,): "rights.no_delete",
        (Lack.NO_PIN,): "rights.no_pin",
        (Lack.NO_DELETE, Lack.NO_PIN): "rights.no_delete_no_pin",
    }
)


async def arrived(context: CustomContext, update: Update, chat_id: int, member: ChatMember) -> None:
    """The bot is in the group (added, promoted or demoted) as `member`: its introduction and
    the notice of what it lacks, each when owed, stored with the memory of saying them."""
    svc = context.services
    lacks = lacking(member.to_dict())
    language = await svc.directory.chat_language(chat_id)

    def owed(welcome: Welcome) -> list[OutboxItem]:
        items = []
        if welcome.introduce:
            rows = language_rows(cb.CHAT_LANGUAGE, chosen=language)
            payload = Payload(INTRODUCTION, {}, buttons=rows).to_row()
            items.append(
                OutboxItem(f"u{update.update_id}:{INTRODUCTION}", chat_id, payload=payload)
            )
        if welcome.tell:
            notice = NOTICES.get(lacks, "rights.not_admin")
            payload = Payload(notice, {}).to_row()
            items.append(OutboxItem(f"u{update.update_id}:{notice}", chat_id, payload=payload))
        return items

    welcome = await svc.store.chats.welcome(chat_id, told(lacks), svc.now(), AGAIN_AFTER, owed)
    if welcome.introduce or welcome.tell:
        svc.outbox_ready.set()


async def language_button(update: Update, context: CustomContext) -> None:
    """A language pressed on the introduction: an admin's press sets the chat's language,
    as `/language xx` does, and the introduction is said again in it; anyone else's is
    refused and changes nothing."""
    query = update.callback_query
    if query is None:
        return
    data = cb.parse(query.data)
    message = query.message
    if (
        data is None
        or data.game != 0
        or len(data.args) != 1
        or data.args[0] not in LANGUAGES
        or message is None
        or message.chat.type not in (ChatType.GROUP, ChatType.SUPERGROUP)
    ):
        await answer_toast(context, update, "toast.stale", alert=True)
        return
    svc, chat_id, code = context.services, message.chat.id, data.args[0]
    key = await svc.store.outbox.message_key(chat_id, message.message_id)
    if key is not None and f":{INTRODUCTION}" not in key:  # not our introduction
        await answer_toast(context, update, "toast.stale", alert=True)
        return
    refusal = admin_refusal(await is_admin(context, chat_id, query.from_user.id))
    if refusal is not None:  # as `/language xx` refuses, and asked of Telegram the same way
        await answer_toast(context, update, error_key(refusal), alert=True)
        return
    await svc.store.chats.set_language(chat_id, code)
    if key is not None:  # None: the post is older than the outbox remembers; left as it is
        rows = language_rows(cb.CHAT_LANGUAGE, chosen=code)
        again = f"u{update.update_id}:{INTRODUCTION}:edit"
        await svc.tell(chat_id, INTRODUCTION, buttons=rows, key=again, edit_of=key)
    await answer_toast(context, update, "language.set", {"language": Language(code)})
