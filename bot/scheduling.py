"""What the scheduler asks of the running bot, and no more (`bot.services.Services` gives
it): the store and the clock, the planner, what follows a written command (its messages
handed on, a finished game's story), what is still owed, the detectives' readings, and a
message of its own."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any, Protocol

from bot.editions.presentations import Presentations
from bot.notebook.keeper import Notebooks
from storage.outbox import Handoff
from storage.service import Outcome, Store


class Scheduling(Protocol):
    """The scheduler's view of the services; it sets `deadlines_changed` (its re-plan,
    called after every command run elsewhere) when it starts its jobs."""

    @property
    def store(self) -> Store: ...

    @property
    def presentations(self) -> Presentations: ...

    @property
    def notebooks(self) -> Notebooks: ...

    deadlines_changed: Callable[[Outcome], None] | None

    def now(self) -> datetime: ...

    def deliver(self, handoff: Handoff) -> None: ...

    def follow_up(self, outcome: Outcome) -> None: ...

    async def compose_owed(self) -> int: ...

    async def tell(
        self,
        chat_id: int,
        msg: str,
        args: dict[str, Any] | None = None,
        *,
        topic_id: int = 0,
        key: str | None = None,
    ) -> None: ...
