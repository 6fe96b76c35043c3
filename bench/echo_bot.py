"""A bare python-telegram-bot echo bot: each message answered with one sendMessage.

    .venv/bin/python -m bench.echo_bot BASE_URL TOKEN

The yardstick of `bench.service`: the same fake Bot API, the same updates, no game.
"""

from __future__ import annotations

import sys

from telegram import Update
from telegram.ext import Application, ContextTypes, MessageHandler, filters


async def echo(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Answer the message with its own text."""
    message = update.effective_message
    if message is not None and message.text:
        await context.bot.send_message(message.chat_id, message.text)


def main() -> None:
    """Poll until SIGTERM."""
    base_url, token = sys.argv[1], sys.argv[2]
    application = Application.builder().token(token).base_url(base_url).build()
    application.add_handler(MessageHandler(filters.TEXT, echo))
    application.run_polling(poll_interval=0.0, timeout=10)


if __name__ == "__main__":
    main()
