"""Deadlines on schedule: a job for each upcoming deadline (APScheduler through PTB's
JobQueue), rebuilt from the deadline rows at start, plus a periodic sweep for overdue ones.

Running a deadline goes through the same store path as a player's command and is
idempotent: the engine ignores a deadline that is stale or early. A deadline found
overdue by more than `offline_after` passed while no bot was running: it carries no
penalty, and the thread is told the bot was offline.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from telegram.ext import Application, ContextTypes, JobQueue

from bot.planning import plan_messages
from bot.services import Services
from engine import commands as cmd
from engine.errors import RuleError
from storage.deadlines import DeadlineRow

log = logging.getLogger(__name__)
LEASE = timedelta(seconds=120)
HORIZON = 500  # upcoming deadlines held as jobs at once


class Scheduler:
    """Owns the deadline jobs of one bot process."""

    def __init__(
        self,
        services: Services,
        worker: str,
        *,
        sweep_every: float = 5.0,
        offline_after: timedelta = timedelta(minutes=2),
    ) -> None:
        self.services = services
        self.worker = worker
        self.sweep_every = sweep_every
        self.offline_after = offline_after

    def install(self, application: Application) -> None:  # type: ignore[type-arg]
        """Start the periodic sweep and schedule the upcoming deadlines."""
        queue = application.job_queue
        assert queue is not None, "python-telegram-bot[job-queue] is required"
        queue.run_repeating(self._sweep_job, interval=self.sweep_every, first=0.0, name="sweep")

        def replan() -> None:
            if not queue.get_jobs_by_name("replan"):
                queue.run_once(self._replan_job, when=0.0, name="replan")

        self.services.deadlines_changed = replan

    async def _replan_job(self, context: ContextTypes.DEFAULT_TYPE) -> None:
        if context.job_queue is not None:
            await self.plan_jobs(context.job_queue)

    async def _sweep_job(self, context: ContextTypes.DEFAULT_TYPE) -> None:
        await self.sweep()
        if context.job_queue is not None:
            await self.plan_jobs(context.job_queue)

    async def plan_jobs(self, queue: JobQueue) -> None:  # type: ignore[type-arg]
        """A one-shot job at each upcoming deadline not yet scheduled."""
        now = self.services.now()
        for row in await self.services.store.next_deadlines(limit=HORIZON):
            name = f"deadline:{row.game_id}:{row.key}:{row.due_at.isoformat()}"
            if row.due_at <= now or queue.get_jobs_by_name(name):
                continue
            queue.run_once(self._deadline_job, when=row.due_at, name=name)

    async def _deadline_job(self, context: ContextTypes.DEFAULT_TYPE) -> None:
        await self.sweep()

    async def sweep(self) -> int:
        """Run every due deadline once; returns how many were run."""
        store = self.services.store
        done = 0
        while True:
            now = self.services.now()
            rows = await store.claim_due_deadlines(self.worker, now, limit=50, lease=LEASE)
            if not rows:
                return done
            for row in rows:
                await self.run_one(row, now)
                done += 1

    async def run_one(self, row: DeadlineRow, now: datetime) -> None:
        """One deadline through the store; a failure releases it for the next sweep."""
        store = self.services.store
        command = row.engine_command()
        missed = now - row.due_at > self.offline_after and not isinstance(command, cmd.SendReminder)
        if missed:
            command = excused(command)
        try:
            outcome = await store.execute(row.game_id, command, now, plan_messages)
        except RuleError as error:  # a deadline is never refused; log and drop it
            log.warning("deadline %s of game %s refused: %s", row.key, row.game_id, error.code)
            await store.complete_deadline(row)
            return
        except Exception:
            log.exception("deadline %s of game %s failed; released", row.key, row.game_id)
            await store.release_deadline(row)
            return
        await store.complete_deadline(row)
        if outcome.events:
            if missed:
                await self._tell_offline(row, outcome.game_id)
            self.services.outbox_ready.set()

    async def _tell_offline(self, row: DeadlineRow, game_id: int) -> None:
        ref = await self.services.store.game(game_id)
        if ref is None:
            return
        await self.services.tell(
            ref.chat_id,
            "scheduler.was_offline",
            {"due_at": row.due_at.isoformat()},
            topic_id=ref.topic_id,
            key=f"offline:{game_id}:{row.key}",
        )


def excused(command: cmd.Command) -> cmd.Command:
    """The same deadline, without penalties: the bot, not the player, was late."""
    if isinstance(command, cmd.EndDay):
        return cmd.EndDay(day=command.day, excuse_penalties=True)
    if isinstance(command, cmd.AnswerDeadline):
        return cmd.AnswerDeadline(suggestion=command.suggestion, excuse_penalty=True)
    return command
