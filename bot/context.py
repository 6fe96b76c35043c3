"""The bot's typed context: what every handler and job receives, with the shared services.

As in python-telegram-bot's `examples/contexttypesbot.py`: a `CallbackContext` subclass
registered through `ContextTypes(context=...)`, so `context.services` is typed and no
handler looks into `bot_data` itself. An update's context also carries its flags (whether
its replies are held back by the flood guard, whether it was an accepted action), taken
from the update processor that handles it (`bot/updates.py`), and runs its game commands.
"""

from __future__ import annotations

from typing import Any

from telegram import Update
from telegram.ext import Application, CallbackContext, ContextTypes, ExtBot, JobQueue

from bot.editions.presentations import Presentations
from bot.services import Services
from bot.updates import KeyedUpdateProcessor, UpdateFlags
from engine.commands import Command, OpenLobby
from storage.service import Outcome
from storage.updates import UpdateMark

Data = dict[Any, Any]


class CustomContext(CallbackContext[ExtBot[str], Data, Data, Data]):
    """The context of one update or job, with the bot's services; for an update, its mark,
    which every game command the update runs is given (storage.updates: a redelivered
    update runs no command twice). python-telegram-bot makes one context per update."""

    update_mark: UpdateMark | None = None  # None: a job's context

    def __init__(
        self, application: Any, chat_id: int | None = None, user_id: int | None = None
    ) -> None:
        super().__init__(application, chat_id, user_id)
        self.flags = UpdateFlags()  # a job's, or an update's until from_update sets them

    @classmethod
    def from_update(cls, update: object, application: Any) -> CustomContext:
        context: CustomContext = super().from_update(update, application)
        if isinstance(update, Update):
            context.update_mark = UpdateMark(update.update_id)
        processor = application.update_processor
        if isinstance(processor, KeyedUpdateProcessor):
            context.flags = processor.flags_of(update)  # the ones its flood gate set
        return context

    async def run(self, game_id: int, command: Command) -> Outcome:
        """Run a game command for this update (`Services.run`); one that changed the game
        makes the update an accepted action, which the flood guard never counts."""
        outcome = await self.services.run(game_id, command, update=self.update_mark)
        if outcome.events:
            self.flags.accepted = True
        return outcome

    async def create(self, chat_id: int, topic_id: int, command: OpenLobby) -> Outcome:
        """Open a game's lobby for this update (`Services.create`): an accepted action."""
        outcome = await self.services.create(chat_id, topic_id, command, update=self.update_mark)
        self.flags.accepted = True
        return outcome

    @property
    def services(self) -> Services:
        """The running bot's services (set up in `post_init`, see `bot/app.py`)."""
        found: Services = self.application.bot_data["services"]
        return found

    @property
    def presentations(self) -> Presentations:
        """The running bot's editions, as the application was built with them."""
        return self.services.presentations


CONTEXT_TYPES = ContextTypes(context=CustomContext)

# The Application as the bot builds it (`bot/app.py`): handlers and jobs get a CustomContext;
# its bot's rate limiter (`bot/request_limiter.py`) takes a string argument.
App = Application[ExtBot[str], CustomContext, Data, Data, Data, JobQueue[CustomContext]]
