"""Bot API methods that change the bot's messages: edit, delete, pin."""

from __future__ import annotations

from typing import Any

from ..chats import FakeGroup, now
from ..messages import FakeMessage
from ..spec import bad_request
from ..users import FakePrivateChat
from .access import Access, Params, image_data, web_app_in_private_only

NOT_MODIFIED = (
    "message is not modified: specified new message content and reply markup are exactly the "
    "same as a current content and reply markup of the message"
)


class Editing:
    """editMessageText / Caption / Media / ReplyMarkup, deleteMessage and pinChatMessage."""

    def __init__(self, access: Access):
        self.access = access

    def editable(self, params: Params) -> FakeMessage:
        """The bot's message addressed by chat_id + message_id."""
        if "inline_message_id" in params or "business_connection_id" in params:
            raise bad_request("inline and business messages are not implemented in the fake")
        if "chat_id" not in params or "message_id" not in params:
            raise bad_request("message identifier is not specified")
        chat = self.access.writable(params["chat_id"])
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
        text = self.access.formatted(params)
        markup = params.get("reply_markup")
        if (text.text, text.entities, markup) == (
            message.text,
            message.entities,
            message.reply_markup,
        ):
            raise bad_request(NOT_MODIFIED)
        message.apply_edit(text.text, params["text"], text.entities, markup, now())
        return message.to_api()

    async def on_editMessageCaption(self, params: Params) -> dict[str, Any]:
        """A photo's caption (and buttons) replaced; the picture stays."""
        message = self.editable(params)
        markup = params.get("reply_markup")
        web_app_in_private_only(message.chat, markup)
        if message.photo is None:
            raise bad_request("there is no caption in the message to edit")
        caption = self.access.caption(params)
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
        data = image_data(upload)
        caption = self.access.caption(media)
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
        chat = self.access.chat(params["chat_id"])
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
        chat = self.access.writable(params["chat_id"])
        if isinstance(chat, FakeGroup) and not chat.may_pin():
            raise bad_request("not enough rights to manage pinned messages in the chat")
        message = chat.message(params["message_id"])
        if message is None or message.service:
            raise bad_request("message to pin not found")
        if isinstance(chat, FakeGroup):
            chat.pin(message, self.access.world.bot)
        return True
