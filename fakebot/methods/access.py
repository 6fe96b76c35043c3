"""What the bot may reach (chats it sees or posts in, topics, users), and a message's text
parsed within Telegram's limits: what every family of Bot API methods checks first."""

from __future__ import annotations

from typing import Any

from ..chats import FakeChat, FakeGroup
from ..messages import FakeMessage, MessageChat
from ..spec import ApiError, bad_request
from ..text import Formatted, format_text, utf16_len
from ..users import FakePrivateChat, FakeUser
from ..world import World

Params = dict[str, Any]
MAX_TEXT = 4096
MAX_CAPTION = 1024


def web_app_in_private_only(chat: MessageChat, markup: dict[str, Any] | None) -> None:
    """Telegram refuses an inline button that opens a Mini App outside a private chat."""
    rows = (markup or {}).get("inline_keyboard", [])
    if not isinstance(chat, FakePrivateChat) and any("web_app" in b for row in rows for b in row):
        raise bad_request("BUTTON_TYPE_INVALID")


def not_implemented(method: str) -> ApiError:
    """The answer for a real Bot API method the fake does not simulate."""
    return bad_request(f"method {method} not implemented in the fake")


def image_data(upload: Any) -> bytes:
    """An uploaded picture's bytes: a PNG or a JPEG, else Telegram's refusal."""
    data: bytes = upload.file.read() if hasattr(upload, "file") else b""
    if not data:
        raise bad_request("wrong file identifier/HTTP URL specified")
    if data[:8] != b"\x89PNG\r\n\x1a\n" and data[:2] != b"\xff\xd8":
        raise bad_request("IMAGE_PROCESS_FAILED")
    return data


class Access:
    """The chats, topics and users of a :class:`World` as the bot may reach them."""

    def __init__(self, world: World):
        self.world = world

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

    def user(self, user_id: int) -> FakeUser:
        """A user by id (the bot included)."""
        if user_id == self.world.bot.id:
            return self.world.bot
        if user_id not in self.world.users:
            raise bad_request("user not found")
        return self.world.users[user_id]

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
