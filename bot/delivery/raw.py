"""Sends whose answer the sender needs one field of, left as JSON.

python-telegram-bot turns every answer of sendMessage and editMessageText into a `Message`
(the chat, the sender, every entity and button as objects): under load that parse was a
seventh of the event loop's time, for a message id. These calls go the same way through
python-telegram-bot (its request, its errors, the application's rate limiter, which lets
the sender's own slots pass) and stop short of the parse.
"""

from __future__ import annotations

from typing import Any

from telegram import Bot, InlineKeyboardMarkup, ReplyParameters
from telegram.ext import ExtBot

from bot.delivery.request_limiter import SENDER


async def _post(bot: Bot, endpoint: str, data: dict[str, Any], timeout: float) -> Any:
    """One call on python-telegram-bot's path, marked as holding its limiter slot already;
    None values are left out, as python-telegram-bot does."""
    marked = None
    if isinstance(bot, ExtBot) and bot.rate_limiter is not None:
        marked = bot._merge_api_rl_kwargs(None, SENDER)
    sent = {key: value for key, value in data.items() if value is not None}
    return await bot._post(
        endpoint, sent, read_timeout=timeout, write_timeout=timeout, api_kwargs=marked
    )


async def send_text(
    bot: Bot,
    chat_id: int,
    text: str,
    *,
    topic_id: int | None,
    reply_to: int | None,
    markup: InlineKeyboardMarkup | None,
    timeout: float,
) -> int:
    """sendMessage with HTML; the id of the message sent."""
    reply = ReplyParameters(reply_to, allow_sending_without_reply=True) if reply_to else None
    data = {
        "chat_id": chat_id,
        "text": text,
        "parse_mode": "HTML",
        "message_thread_id": topic_id or None,
        "reply_parameters": reply,
        "reply_markup": markup,
    }
    result = await _post(bot, "sendMessage", data, timeout)
    return int(result["message_id"])


async def edit_text(
    bot: Bot,
    chat_id: int,
    message_id: int,
    text: str,
    *,
    markup: InlineKeyboardMarkup | None,
    timeout: float,
    caption: bool = False,
) -> None:
    """editMessageText with HTML; with `caption`, editMessageCaption (a picture's text: the
    picture stays)."""
    method, field = ("editMessageCaption", "caption") if caption else ("editMessageText", "text")
    data = {
        "chat_id": chat_id,
        "message_id": message_id,
        field: text,
        "parse_mode": "HTML",
        "reply_markup": markup,
    }
    await _post(bot, method, data, timeout)
