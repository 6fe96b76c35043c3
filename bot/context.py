"""The bot's typed context: what every handler and job receives, with the shared services.

As in python-telegram-bot's `examples/contexttypesbot.py`: a `CallbackContext` subclass
registered through `ContextTypes(context=...)`, so `context.services` is typed and no
handler looks into `bot_data` itself.
"""

from __future__ import annotations

from typing import Any

from telegram import Update
from telegram.ext import Application, CallbackContext, ContextTypes, ExtBot, JobQueue

from bot.services import Services
from storage.updates import UpdateMark

Data = dict[Any, Any]


class CustomContext(CallbackContext[ExtBot[str], Data, Data, Data]):
    """The context of one update or job, with the bot's services; for an update, its mark,
    which every game command the update runs is given (storage.updates: a redelivered
    update runs no command twice). python-telegram-bot makes one context per update."""

    update_mark: UpdateMark | None = None  # None: a job's context

    @classmethod
    def from_update(cls, update: object, application: Any) -> CustomContext:
        context: CustomContext = super().from_update(update, application)
        if isinstance(update, Update):
            context.update_mark = UpdateMark(update.update_id)
        return context

    @property
    def services(self) -> Services:
        """The running bot's services (set up in `post_init`, see `bot/app.py`)."""
        found: Services = self.application.bot_data["services"]
        return found


CONTEXT_TYPES = ContextTypes(context=CustomContext)

# The Application as the bot builds it (`bot/app.py`): handlers and jobs get a CustomContext;
# its bot's rate limiter (`bot/request_limiter.py`) takes a string argument.
App = Application[ExtBot[str], CustomContext, Data, Data, Data, JobQueue[CustomContext]]
