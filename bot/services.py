"""What handlers, the sender and the scheduler share: the store, the clock, the new games'
seeds, and the wake-up."""

from __future__ import annotations

import asyncio
import itertools
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from bot.admins import AdminCache
from bot.directory import Directory
from bot.editions.presentations import Presentations
from bot.editions.registry import shipped
from bot.notebook.keeper import Notebooks
from bot.observe import note_game
from bot.owed import compose_owed
from bot.payload import Payload
from bot.refusals import RepeatedRefusals
from engine.commands import Command, OpenLobby
from engine.events import GameEnded
from engine.registry import Registry
from storage.messages_owed import OutboxItem
from storage.outbox import Handoff
from storage.service import Outcome, Store
from storage.updates import UpdateMark

log = logging.getLogger(__name__)
_counter = itertools.count()
COMPOSER = "composer"  # who claims owed rows in a process with no sender's worker name
NOTED_AT_AN_END = 20  # rated games whose notebook moments are noted after a game's end, at most


def utc_now() -> datetime:
    return datetime.now(UTC)


Seeds = Callable[[], int]  # each call, the next new game's seed (its deal, envelope and dice)


def fresh_seed() -> int:
    """A new game's seed (its deal, envelope and dice), drawn unforeseeably."""
    return secrets.randbits(63)


@dataclass
class Services:
    """One per running bot, kept in `bot_data["services"]`; handlers read `context.services`.
    The other parts are given it as the narrow view each declares: the sender as
    `bot.delivery.needs.Delivering`, the scheduler as `bot.scheduling.Scheduling`, the
    notebook Mini App as `bot.web.notebook_app.NotebookPages`."""

    store: Store
    presentations: Presentations = field(default_factory=shipped)  # the editions shown
    bot_username: str = "whodunit_bot"
    default_language: str = "en"
    notebook_app_url: str | None = None  # the notebook Mini App's page (webhook mode, https)
    clock: Callable[[], datetime] = utc_now
    seeds: Seeds = fresh_seed  # random; the demo's and the tests' give chosen seeds
    outbox_ready: asyncio.Event = field(default_factory=asyncio.Event)
    directory: Directory = field(init=False)
    notebooks: Notebooks = field(init=False)
    _background: set[asyncio.Task[Any]] = field(default_factory=set)
    deadlines_changed: Callable[[Outcome], None] | None = None  # the scheduler's re-plan
    seen_people: dict[int, tuple[str, str | None, str | None]] = field(default_factory=dict)
    admins: AdminCache = field(default_factory=AdminCache)
    refusals: RepeatedRefusals = field(default_factory=RepeatedRefusals)
    # The sender's intake of rows claimed for it by the write that stored them (set together
    # with `store.claim_for` when this process runs a sender).
    hand_over: Callable[[Handoff], None] | None = None

    def __post_init__(self) -> None:
        self.directory = Directory(self.store, self.default_language)
        self.notebooks = Notebooks(self.store)

    @property
    def registry(self) -> Registry:
        """The engine's formats this bot plays: its store's."""
        return self.store.registry

    def now(self) -> datetime:
        return self.clock()

    async def run(
        self, game_id: int, command: Command, *, update: UpdateMark | None = None
    ) -> Outcome:
        """Run a command on a game (RuleError if refused), for the update `update` (None: a
        deadline's); its messages are queued. A handler runs it through its context
        (`CustomContext.run`), which marks the update an accepted action."""
        note_game(game_id)
        now = self.now()
        outcome = await self.store.execute(
            game_id, command, now, self.presentations.plan_messages, update=update
        )
        self._written(outcome)
        return outcome

    async def report(self, game_id: int, command: Command) -> Outcome:
        """Run a command nobody pressed (a delivery's report, `ClockSeen`) on a game, as
        any command is run (its messages and deadlines written and re-planned), but never
        counted as a person's accepted action."""
        outcome = await self.store.execute(
            game_id, command, self.now(), self.presentations.plan_messages
        )
        self._written(outcome)
        return outcome

    async def create(
        self, chat_id: int, topic_id: int, command: OpenLobby, *, update: UpdateMark | None = None
    ) -> Outcome:
        outcome = await self.store.create_game(
            chat_id, topic_id, command, self.now(), self.presentations.plan_messages, update=update
        )
        note_game(outcome.game_id)
        self._written(outcome)
        return outcome

    def _written(self, outcome: Outcome) -> None:
        if outcome.events:
            self.deliver(outcome.handoff)
            if self.deadlines_changed is not None:
                self.deadlines_changed(outcome)
            self.follow_up(outcome)

    def follow_up(self, outcome: Outcome) -> None:
        """What a written command sets going beside its messages (a handler's or a
        deadline's): a game that ended owes its story (stored with the end), composed now
        in the background (a sweep composes it if this process dies first: bot/owed.py),
        and its notebook moments are noted for /me. The notebooks its players looked at are
        worked out again for the new state (bot/notebook/keeper.py `warm`)."""
        if outcome.events:
            self.notebooks.warm(outcome.game_id)
        if not any(isinstance(e, GameEnded) for e in outcome.events):
            return
        task = asyncio.create_task(self._after_the_end())
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    @property
    def following_up(self) -> bool:
        """Whether something a written command set going (`follow_up`) is still under way."""
        return any(not task.done() for task in self._background)

    async def _after_the_end(self) -> None:
        """The story owed; the achievements post the ratings' take-in owes, composed once
        that is done (begun beside the ending command, it may finish after the story); then
        the notebook moments of the games rated, the newest first and a few at a time (slow
        in a big game, so never on a command's way; a backlog is worked off over the next
        games' ends)."""
        await self.compose_owed()
        await self.store.ratings_taken_in()
        await self.compose_owed()
        try:
            await self.store.ratings.note_pending(NOTED_AT_AN_END)
        except Exception:
            log.exception("notebook moments: left for the next game's end")

    async def compose_owed(self) -> int:
        """Compose the messages owed (bot/owed.py) and wake the sender for them."""
        worker = self.store.claim_for or COMPOSER
        queued = await compose_owed(self.store, worker, self.now)
        if queued:
            self.outbox_ready.set()
        return queued

    def deliver(self, handoff: Handoff) -> None:
        """Hand claimed rows to the sender; without one here, wake whoever claims."""
        if self.hand_over is not None and self.store.claim_for is not None:
            self.hand_over(handoff)
        else:
            self.outbox_ready.set()

    async def tell(
        self,
        chat_id: int,
        msg: str,
        args: dict[str, Any] | None = None,
        *,
        topic_id: int = 0,
        user_id: int | None = None,
        reply_to_message_id: int | None = None,
        buttons: list[list[dict[str, Any]]] | None = None,
        key: str | None = None,
        notify: tuple[int, int] | None = None,
        tz: str | None = None,
        labels: dict[str, str] | None = None,
        edit_of: str | None = None,
        picture: str | None = None,
    ) -> None:
        """Queue one message outside a game command (an answer, an error, a listing);
        with `edit_of`, an edit of the message that the row with that key sent; with
        `picture`, a photo drawn from the arguments (the text its caption)."""
        payload = Payload(
            msg,
            args or {},
            tz=tz,
            labels=labels,
            buttons=buttons,
            notify=notify,
            edit_of=edit_of,
            reply_to_message_id=reply_to_message_id,
            picture=picture,
        ).to_row()
        unique = key or f"tell:{chat_id}:{self.now().timestamp()}:{next(_counter)}"
        item = OutboxItem(
            key=unique, chat_id=chat_id, topic_id=topic_id, user_id=user_id, payload=payload
        )
        worker = self.store.claim_for
        if worker is None or self.hand_over is None:
            await self.store.outbox.enqueue([item], self.now())
            self.outbox_ready.set()
            return
        self.deliver(await self.store.outbox.enqueue_claimed([item], self.now(), worker))

    def deep_link(self, payload: str) -> str:
        return f"https://t.me/{self.bot_username}?start={payload}"
