"""The Telegram bot: handlers, planner, sender and scheduler around the engine and storage."""

import os

# Opt in to python-telegram-bot's coming behaviour: time spans (retry_after) as timedelta.
os.environ.setdefault("PTB_TIMEDELTA", "1")
