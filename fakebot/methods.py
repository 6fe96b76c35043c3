"""The Bot API methods the fake implements, with Telegram's semantics and error texts."""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Awaitable, Callable
from typing import Any

from .chats import FakeChat, FakeGroup, FakePrivateChat, now
from .messages import CallbackAnswer, FakeMessage
from .spec import ApiError, bad_request
from .text import Formatted, format_text, utf16_len
from .webhook import Webhook
from .world import World

Params = dict[str, Any]
MAX_TEXT = 4096
MAX_CAPTION = 1024
CHAT_ACTIONS = {
    "typing",
    "upload_photo",
    "record_video",
    "upload_video",
    "record_voice",
    "upload_voice",
    "upload_document",
    "choose_sticker",
    "find_location",
    "record_video_note",
    "upload_video_note",
}
NOT_MODIFIED = (
    "message is not modified: specified new message content and reply markup are exactly the "
    "same as a current content and reply markup of the message"
)
CONFLICT = (
    "Conflict: terminated by other getUpdates request; "
    "make sure that only one bot instance is running"
)
QUERY_INVALID = "query is too old and response timeout expired or query ID is invalid"


def web_app_in_private_only(chat: FakeChat, markup: dict[str, Any] | None) -> None:
    """Telegram refuses an inline button that opens a Mini App outside a private chat."""
    rows = (markup or {}).get("inline_keyboard", [])
    if not isinstance(chat, FakePrivateChat) and any("web_app" in b for row in rows for b in row):
        raise bad_request("BUTTON_TYPE_INVALID")


def not_implemented(method: str) -> ApiError:
    """The answer for a real Bot API method the fake does not simulate."""
    return bad_request(f"method {method} not implemented in the fake")


class BotApi:
    """Implements Bot API methods against a :class:`World`."""

    def __init__(self, world: World, *, callback_ttl: float = 15.0):
        self.world = world
        self.callback_ttl = callback_ttl
        self.commands: dict[tuple[str, str], list[dict[str, Any]]] = {}
        self.menu_buttons: dict[int, dict[str, Any]] = {}
        self._poll: asyncio.Future[None] | None = None
        self.webhook = Webhook(world)
        self.handlers: dict[str, Callable[[Params], Awaitable[Any]]] = {
            name[3:]: getattr(self, name) for name in dir(self) if name.startswith("on_")
        }

    async def call(self, method: str, params: Params) -> Any:
        """Run ``method`` (canonical name) with validated ``params``."""
        handler = self.handlers.get(method)
        if handler is None:
            raise not_implemented(method)
        return await handler(params)

    # -- chats ------------------------------------------------------------------------------
    def chat(self, chat_id: int | str) -> FakeChat:
        """A chat the bot can see (400 chat not found otherwise)."""
        chat = self.world.chat(chat_id)
        if chat is None:
            raise bad_request("chat not found")
        if isinstance(chat, FakePrivateChat):
            user = chat.user
            if not (user.started or user.id in self.world.seen):
                raise bad_request("chat not found")
        elif isinstance(chat, FakeGroup) and (refusal := chat.refusal()) is not None:
            raise refusal  # upgraded to a supergroup, or the bot is not in it
        return chat

    def writable(self, chat_id: int | str) -> FakeChat:
        """A chat the bot may post in (403 for users who never started or blocked it)."""
        chat = self.world.chat(chat_id)
        if isinstance(chat, FakePrivateChat):
            if chat.user.blocked:
                raise ApiError(403, "Forbidden: bot was blocked by the user")
            if not chat.user.started:
                raise ApiError(403, "Forbidden: bot can't initiate conversation with a user")
        return self.chat(chat_id)

    def thread(self, chat: FakeChat, thread_id: int | None) -> int | None:
        """Check message_thread_id against the chat's forum topics."""
        if thread_id is None:
            return None
        if not (isinstance(chat, FakeGroup) and chat.forum):
            raise bad_request("message thread not found")
        topic = chat.topics.get(thread_id)
        if topic is None:
            raise bad_request("message thread not found")
        if topic.closed and chat.bot_status != "administrator":
            raise bad_request("TOPIC_CLOSED")
        return thread_id

    def user(self, user_id: int) -> Any:
        """A user by id (the bot included)."""
        if user_id == self.world.bot.id:
            return self.world.bot
        if user_id not in self.world.users:
            raise bad_request("user not found")
        return self.world.users[user_id]

    # -- sending ----------------------------------------------------------------------------
    def formatted(self, params: Params) -> Formatted:
        """Parse the text of a message and apply Telegram's limits."""
        result = format_text(params["text"], params.get("parse_mode"), params.get("entities"))
        if not result.text:
            raise bad_request("message text is empty")
        if len(result.text) > MAX_TEXT:
            raise bad_request("message is too long")
        for entity in result.entities:  # <a href="tg://user?id=N"> mentions a known user
            if "user_id" in entity:
                user_id = entity.pop("user_id")
                if user_id in self.world.users:
                    entity["user"] = self.world.users[user_id].to_api()
                else:
                    entity.update(type="text_link", url=f"tg://user?id={user_id}")
        return result

    def reply(
        self, chat: FakeChat, params: Params
    ) -> tuple[FakeMessage | None, dict[str, Any] | None]:
        """Resolve reply_parameters: the replied message and the TextQuote."""
        reply = params.get("reply_parameters")
        if reply is None:
            return None, None
        if "chat_id" in reply and self.world.chat(reply["chat_id"]) is not chat:
            raise bad_request("replies to another chat are not implemented in the fake")
        target = chat.message(reply["message_id"])
        if target is None:
            if reply.get("allow_sending_without_reply"):
                return None, None
            raise bad_request("message to be replied not found")
        quote = reply.get("quote")
        if not quote:
            return target, None
        position = target.text.find(format_text(quote, reply.get("quote_parse_mode")).text)
        if position < 0:
            raise bad_request("QUOTE_TEXT_INVALID")
        return target, {
            "text": quote,
            "position": utf16_len(target.text[:position]),
            "is_manual": True,
        }

    async def on_sendMessage(self, params: Params) -> dict[str, Any]:
        chat = self.writable(params["chat_id"])
        web_app_in_private_only(chat, params.get("reply_markup"))
        thread = self.thread(chat, params.get("message_thread_id"))
        reply_to, quote = self.reply(chat, params)
        if reply_to is not None and thread is None:
            thread = reply_to.thread_id
        text = self.formatted(params)
        options = {
            k: params[k]
            for k in ("link_preview_options", "disable_notification", "protect_content")
            if k in params
        }
        message = chat.add_message(
            self.world.bot,
            text=text.text,
            html=params["text"],
            entities=text.entities,
            reply_to=reply_to,
            thread_id=thread,
            reply_markup=params.get("reply_markup"),
            quote=quote,
            options=options,
        )
        return message.to_api()

    async def on_sendPhoto(self, params: Params) -> dict[str, Any]:
        """A photo uploaded (multipart) with an optional caption; sizes are read from the
        PNG header, like Telegram's own photo sizes."""
        chat = self.writable(params["chat_id"])
        web_app_in_private_only(chat, params.get("reply_markup"))
        thread = self.thread(chat, params.get("message_thread_id"))
        reply_to, _ = self.reply(chat, params)
        upload = params["photo"]
        data = upload.file.read() if hasattr(upload, "file") else b""
        if not data:
            raise bad_request("wrong file identifier/HTTP URL specified")
        if data[:8] != b"\x89PNG\r\n\x1a\n" and data[:2] != b"\xff\xd8":
            raise bad_request("IMAGE_PROCESS_FAILED")
        if len(data) > 10 * 1024 * 1024:
            raise bad_request("PHOTO_INVALID_DIMENSIONS")
        caption = Formatted("", [])
        if params.get("caption"):
            caption = self.formatted(
                {"text": params["caption"], "parse_mode": params.get("parse_mode")}
            )
            if len(caption.text) > MAX_CAPTION:
                raise bad_request("message caption is too long")
        width = int.from_bytes(data[16:20], "big") if data[:4] == b"\x89PNG" else 0
        height = int.from_bytes(data[20:24], "big") if data[:4] == b"\x89PNG" else 0
        size = {
            "file_id": f"photo{len(chat._messages) + 1}_{chat.id}",
            "file_unique_id": f"u{len(data)}",
            "width": width,
            "height": height,
            "file_size": len(data),
        }
        message = chat.add_message(
            self.world.bot,
            text=caption.text,
            html=params.get("caption", ""),
            entities=caption.entities,
            reply_to=reply_to,
            thread_id=thread if thread is not None or reply_to is None else reply_to.thread_id,
            reply_markup=params.get("reply_markup"),
            photo=[size],
            photo_bytes=data,
        )
        return message.to_api()

    async def on_sendChatAction(self, params: Params) -> bool:
        chat = self.writable(params["chat_id"])
        self.thread(chat, params.get("message_thread_id"))
        if params["action"] not in CHAT_ACTIONS:
            raise bad_request("wrong parameter action in request")
        chat.actions.append(params["action"])
        return True

    # -- editing ----------------------------------------------------------------------------
    def editable(self, params: Params) -> FakeMessage:
        """The bot's message addressed by chat_id + message_id."""
        if "inline_message_id" in params or "business_connection_id" in params:
            raise bad_request("inline and business messages are not implemented in the fake")
        if "chat_id" not in params or "message_id" not in params:
            raise bad_request("message identifier is not specified")
        chat = self.writable(params["chat_id"])
        message = chat.message(params["message_id"])
        if message is None:
            raise bad_request("message to edit not found")
        if not message.is_from_bot or message.service:
            raise bad_request("message can't be edited")
        return message

    async def on_editMessageText(self, params: Params) -> dict[str, Any]:
        if "rich_message" in params:
            raise bad_request("rich_message is not implemented in the fake")
        if not params.get("text"):
            raise bad_request("message text is empty")
        message = self.editable(params)
        web_app_in_private_only(message.chat, params.get("reply_markup"))
        if message.photo is not None:
            raise bad_request("there is no text in the message to edit")
        text = self.formatted(params)
        markup = params.get("reply_markup")
        if (text.text, text.entities, markup) == (
            message.text,
            message.entities,
            message.reply_markup,
        ):
            raise bad_request(NOT_MODIFIED)
        message.apply_edit(text.text, params["text"], text.entities, markup, now())
        return message.to_api()

    def caption(self, params: Params) -> Formatted:
        """A photo's caption, parsed, within Telegram's limit (empty when none is given)."""
        if not params.get("caption"):
            return Formatted("", [])
        caption = self.formatted(
            {"text": params["caption"], "parse_mode": params.get("parse_mode")}
        )
        if len(caption.text) > MAX_CAPTION:
            raise bad_request("message caption is too long")
        return caption

    async def on_editMessageCaption(self, params: Params) -> dict[str, Any]:
        """A photo's caption (and buttons) replaced; the picture stays."""
        message = self.editable(params)
        markup = params.get("reply_markup")
        web_app_in_private_only(message.chat, markup)
        if message.photo is None:
            raise bad_request("there is no caption in the message to edit")
        caption = self.caption(params)
        if (caption.text, caption.entities, markup) == (
            message.text,
            message.entities,
            message.reply_markup,
        ):
            raise bad_request(NOT_MODIFIED)
        message.apply_edit(caption.text, params.get("caption", ""), caption.entities, markup, now())
        return message.to_api()

    async def on_editMessageMedia(self, params: Params) -> dict[str, Any]:
        """A photo message's picture replaced by an upload (attach://<part>), with the
        media's caption; a text message cannot become a photo."""
        message = self.editable(params)
        markup = params.get("reply_markup")
        web_app_in_private_only(message.chat, markup)
        media = params["media"]
        if media.get("type") != "photo":
            raise bad_request("only photos are implemented in the fake")
        if message.photo is None:
            raise bad_request("there is no media in the message to edit")
        ref = str(media.get("media", ""))
        upload: Any = (
            params.get(ref.removeprefix("attach://")) if ref.startswith("attach://") else None
        )
        data = upload.file.read() if hasattr(upload, "file") else b""
        if not data:
            raise bad_request("wrong file identifier/HTTP URL specified")
        if data[:8] != b"\x89PNG\r\n\x1a\n" and data[:2] != b"\xff\xd8":
            raise bad_request("IMAGE_PROCESS_FAILED")
        caption = self.caption(media)
        message.photo = [{**message.photo[0], "file_unique_id": f"u{len(data)}e"}]
        message.photo_bytes = data
        message.apply_edit(caption.text, media.get("caption", ""), caption.entities, markup, now())
        return message.to_api()

    async def on_editMessageReplyMarkup(self, params: Params) -> dict[str, Any]:
        message = self.editable(params)
        markup = params.get("reply_markup")
        web_app_in_private_only(message.chat, markup)
        if markup == message.reply_markup or (not markup and not message.reply_markup):
            raise bad_request(NOT_MODIFIED)
        message.apply_edit(message.text, message.html, message.entities, markup, now())
        return message.to_api()

    async def on_deleteMessage(self, params: Params) -> bool:
        chat = self.chat(params["chat_id"])
        message = chat.message(params["message_id"])
        if message is None:
            raise bad_request("message to delete not found")
        admin = isinstance(chat, FakeGroup) and chat.bot_status == "administrator"
        own = message.is_from_bot or isinstance(chat, FakePrivateChat)
        if "forum_topic_created" in message.service or not (own or admin):
            raise bad_request("message can't be deleted")
        message.deleted = True
        return True

    async def on_pinChatMessage(self, params: Params) -> bool:
        """In a group only an admin with the can_pin_messages right may pin."""
        if "business_connection_id" in params:
            raise bad_request("business messages are not implemented in the fake")
        chat = self.writable(params["chat_id"])
        if isinstance(chat, FakeGroup) and not chat.may_pin():
            raise bad_request("not enough rights to manage pinned messages in the chat")
        message = chat.message(params["message_id"])
        if message is None or message.service:
            raise bad_request("message to pin not found")
        if isinstance(chat, FakeGroup):
            chat.pin(message, self.world.bot)
        return True

    # -- callbacks --------------------------------------------------------------------------
    async def on_answerCallbackQuery(self, params: Params) -> bool:
        query = self.world.callbacks.get(params["callback_query_id"])
        if query is None or query.answer is not None:
            raise bad_request(QUERY_INVALID)
        if time.monotonic() - query.created > self.callback_ttl:
            raise bad_request(QUERY_INVALID)
        if len(params.get("text") or "") > 200:
            raise bad_request("MESSAGE_TOO_LONG")
        query.answer = CallbackAnswer(
            True, params.get("text"), params.get("show_alert", False), params.get("url")
        )
        if not query.future.done():
            query.future.set_result(query.answer)
        return True

    # -- chat information -------------------------------------------------------------------
    async def on_getChat(self, params: Params) -> dict[str, Any]:
        return self.chat(params["chat_id"]).full_info()

    async def on_getChatMember(self, params: Params) -> dict[str, Any]:
        chat = self.chat(params["chat_id"])
        user = self.user(params["user_id"])
        if isinstance(chat, FakePrivateChat):
            if user is not chat.user and user is not self.world.bot:
                raise bad_request("user not found")
            return chat.member(user)
        assert isinstance(chat, FakeGroup)
        return chat.member(user)

    async def on_getChatAdministrators(self, params: Params) -> list[dict[str, Any]]:
        chat = self.chat(params["chat_id"])
        if not isinstance(chat, FakeGroup):
            raise bad_request("there are no administrators in the private chat")
        admins = [
            self.world.users[u]
            for u, s in chat.statuses.items()
            if s in ("creator", "administrator")
        ]
        if chat.bot_status == "administrator":
            admins.append(self.world.bot)
        return [chat.member(user) for user in admins]

    async def on_getChatMemberCount(self, params: Params) -> int:
        chat = self.chat(params["chat_id"])
        if not isinstance(chat, FakeGroup):
            return 2
        present = ("creator", "administrator", "member", "restricted")
        return sum(s in present for s in chat.statuses.values()) + (chat.bot_status in present)

    # -- bot settings -----------------------------------------------------------------------
    def scope_key(self, params: Params) -> tuple[str, str]:
        """A hashable key for (scope, language_code), checking chats and users in the scope."""
        language = params.get("language_code") or ""
        if language and not re.fullmatch(r"[a-z]{2}", language):
            raise bad_request("invalid language code specified")
        scope = dict(params.get("scope") or {"type": "default"})
        if "chat_id" in scope:
            chat = self.chat(scope["chat_id"])
            scope["chat_id"] = chat.id
            if scope["type"] != "chat" and not isinstance(chat, FakeGroup):
                raise bad_request("can't change commands of administrators of a private chat")
        if "user_id" in scope:
            self.user(scope["user_id"])
        return json.dumps(scope, sort_keys=True), language

    async def on_setMyCommands(self, params: Params) -> bool:
        if len(params["commands"]) > 100:
            raise bad_request("too many commands")
        self.commands[self.scope_key(params)] = params["commands"]
        return True

    async def on_deleteMyCommands(self, params: Params) -> bool:
        self.commands.pop(self.scope_key(params), None)
        return True

    async def on_getMyCommands(self, params: Params) -> list[dict[str, Any]]:
        return self.commands.get(self.scope_key(params), [])

    def menu_chat(self, params: Params) -> int:
        if "chat_id" not in params:
            return 0
        chat = self.chat(params["chat_id"])
        if not isinstance(chat, FakePrivateChat):
            raise bad_request("menu button can be set only in private chats")
        return chat.id

    async def on_setChatMenuButton(self, params: Params) -> bool:
        self.menu_buttons[self.menu_chat(params)] = params.get("menu_button") or {"type": "default"}
        return True

    async def on_getChatMenuButton(self, params: Params) -> dict[str, Any]:
        chat_id = self.menu_chat(params)
        button = self.menu_buttons.get(chat_id)
        if button is None or (chat_id and button["type"] == "default"):
            button = self.menu_buttons.get(0)
        return button or {"type": "commands"}

    # -- updates ----------------------------------------------------------------------------
    async def on_getMe(self, params: Params) -> dict[str, Any]:
        return {
            **self.world.bot.to_api(),
            "can_join_groups": True,
            "can_read_all_group_messages": not self.world.privacy_mode,
            "supports_inline_queries": False,
            "can_connect_to_business": False,
            "has_main_web_app": False,
        }

    async def on_setWebhook(self, params: Params) -> bool:
        if "certificate" in params or "ip_address" in params:
            raise not_implemented("setWebhook with a certificate or an IP address")
        return self.webhook.set(params)

    async def on_deleteWebhook(self, params: Params) -> bool:
        self.webhook.delete(bool(params.get("drop_pending_updates")))
        return True

    async def on_getWebhookInfo(self, params: Params) -> dict[str, Any]:
        return self.webhook.info()

    async def on_getUpdates(self, params: Params) -> list[dict[str, Any]]:
        world = self.world
        self.webhook.refuse_get_updates()
        if "allowed_updates" in params:
            world.allowed_updates = params["allowed_updates"]
        offset = params.get("offset")
        if offset is not None and offset < 0:
            del world.updates[: max(0, len(world.updates) + offset)]
        elif offset:
            world.updates[:] = [u for u in world.updates if u["update_id"] >= offset]
        limit = min(max(params.get("limit", 100), 1), 100)
        if self._poll is not None and not self._poll.done():
            self._poll.set_exception(ApiError(409, CONFLICT))
        mine: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._poll = mine
        deadline = time.monotonic() + max(0, params.get("timeout", 0))
        try:
            while not world.updates and not self.closed:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                change = world.waiter()
                try:
                    await asyncio.wait(
                        [mine, change], timeout=left, return_when=asyncio.FIRST_COMPLETED
                    )
                finally:
                    change.cancel()
                if mine.done():
                    mine.result()
        finally:
            if not mine.done():
                mine.cancel()
        return world.updates[:limit]

    closed = False

    def close(self) -> None:
        """Release long polls (server shutdown)."""
        self.closed = True
        self.world.notify()
