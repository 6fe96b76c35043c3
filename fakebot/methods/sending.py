"""Bot API methods that post into a chat: a message, a photo, a chat action."""

from __future__ import annotations

from typing import Any

from ..spec import bad_request
from .access import Access, Params, image_data, web_app_in_private_only

CHAT_ACTIONS = frozenset(
    {
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
)
MAX_PHOTO_BYTES = 10 * 1024 * 1024


class Sending:
    """sendMessage, sendPhoto and sendChatAction."""

    def __init__(self, access: Access):
        self.access = access

    async def on_sendMessage(self, params: Params) -> dict[str, Any]:
        chat = self.access.writable(params["chat_id"])
        web_app_in_private_only(chat, params.get("reply_markup"))
        thread = self.access.thread(chat, params.get("message_thread_id"))
        reply_to, quote = self.access.reply(chat, params)
        if reply_to is not None and thread is None:
            thread = reply_to.thread_id
        text = self.access.formatted(params)
        options = {
            k: params[k]
            for k in ("link_preview_options", "disable_notification", "protect_content")
            if k in params
        }
        message = chat.add_message(
            self.access.world.bot,
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
        chat = self.access.writable(params["chat_id"])
        web_app_in_private_only(chat, params.get("reply_markup"))
        thread = self.access.thread(chat, params.get("message_thread_id"))
        reply_to, _ = self.access.reply(chat, params)
        data = image_data(params["photo"])
        if len(data) > MAX_PHOTO_BYTES:
            raise bad_request("PHOTO_INVALID_DIMENSIONS")
        caption = self.access.caption(params)
        width = int.from_bytes(data[16:20], "big") if data[:4] == b"\x89PNG" else 0
        height = int.from_bytes(data[20:24], "big") if data[:4] == b"\x89PNG" else 0
        size = {
            "file_id": f"photo{len(chat.messages(deleted=True)) + 1}_{chat.id}",
            "file_unique_id": f"u{len(data)}",
            "width": width,
            "height": height,
            "file_size": len(data),
        }
        message = chat.add_message(
            self.access.world.bot,
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
        chat = self.access.writable(params["chat_id"])
        self.access.thread(chat, params.get("message_thread_id"))
        if params["action"] not in CHAT_ACTIONS:
            raise bad_request("wrong parameter action in request")
        chat.actions.append(params["action"])
        return True
