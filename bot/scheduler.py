"""Deadlines on schedule: a job for each upcoming deadline (APScheduler through PTB's
JobQueue), rebuilt from the deadline rows at start, plus a periodic sweep for overdue ones.

The scheduler keeps its own table of jobs, game -> deadline key -> job. A command's outcome
carries its game's deadline rows after it, and only that game's jobs are added, moved or
removed (an answered suggestion's job goes at once): nothing scans all games or all jobs.
The periodic sweep adds any missing job among the earliest HORIZON rows (rows written by
another process, deadlines coming into the horizon); it and the start-up rebuild guarantee
nothing is lost, and a stale job only runs a sweep that finds nothing due. Each periodic
sweep also composes the messages still owed (bot/owed.py: a story whose process died first).

Running a deadline goes through the same store path as a player's command and is
idempotent: the engine ignores a deadline that is stale or early. A deadline that fell due
while no bot was running (after the last heartbeat of any process and before this one
started), or that ran more than `offline_after` late, carries no penalty, and the thread
is told the bot was offline.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import os
import secrets
import socket
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta

from telegram.ext import Job, JobQueue

from bot.context import App, CustomContext
from bot.payload import Moment
from bot.scheduling import Scheduling
from engine import commands as cmd
from engine import deadlines
from engine.detectives import cued_move
from engine.errors import RuleError
from storage.deadlines import DeadlineRow
from storage.service import Outcome

log = logging.getLogger(__name__)
LEASE = timedelta(seconds=120)
# A deadline whose clock's message is still on its way looks again this much later, and
# waits for it at most this long past its moment (bot.delivery.clocks).
AWAIT_STEP = timedelta(seconds=5)
AWAIT_AT_MOST = timedelta(minutes=15)
HORIZON = 500  # upcoming deadlines held as jobs at once
PARALLEL_GAMES = 8


@dataclass
class GameJobs:
    """One game's deadline jobs, as of the game's event `seq` (an older outcome is ignored)."""

    seq: int = 0
    jobs: dict[str, tuple[datetime, Job[CustomContext]]] = field(default_factory=dict)


class Scheduler:
    """Owns the deadline jobs of one bot process."""

    def __init__(
        self,
        services: Scheduling,
        worker: str,
        *,
        sweep_every: float = 5.0,
        offline_after: timedelta = timedelta(minutes=2),
    ) -> None:
        self.services = services
        self.worker = worker
        self.sweep_every = sweep_every
        self.offline_after = offline_after
        self.down_since: datetime | None = None
        self.booted_at = services.now()
        self.queue: JobQueue[CustomContext] | None = None  # the application's, once installed
        self.games: dict[int, GameJobs] = {}  # the deadline jobs this scheduler holds
        # The latest deadline of the last periodic plan when it filled its HORIZON: later
        # ones wait for a later plan (None: no limit), so the jobs stay about HORIZON.
        self.edge: datetime | None = None
        # Called once when another worker's heartbeat is seen fresh (the limiter then counts
        # Telegram's limits with the others); None once called, or when nobody asked.
        self.on_peer: Callable[[], None] | None = None

    async def start(self, application: App) -> None:
        """Note how long no bot was running, free what dead processes held, start the jobs."""
        workers = self.services.store.workers
        self.booted_at = self.services.now()
        self.down_since = await workers.beat(self.worker, self.booted_at)
        await release_dead_claims(self.services, self.worker)
        self.install(application)

    def _peer_seen(self, last_beat: datetime | None) -> None:
        """Tell `on_peer` once another worker has beaten since this one started (a process
        this one replaced beat before it started, and never again)."""
        if self.on_peer is None or last_beat is None or last_beat <= self.booted_at:
            return
        self.on_peer()
        self.on_peer = None

    def missed_while_down(self, row: DeadlineRow, now: datetime) -> bool:
        """A deadline that fell due while no bot ran, or that a bot ran far too late."""
        if self.down_since is not None and self.down_since < row.due_at <= self.booted_at:
            return True
        return now - row.due_at > self.offline_after

    def install(self, application: App) -> None:
        """Start the periodic sweep and schedule the upcoming deadlines."""
        queue = application.job_queue
        assert queue is not None, "python-telegram-bot[job-queue] is required"
        self.queue = queue
        queue.run_repeating(self._sweep_job, interval=self.sweep_every, first=0.0, name="sweep")
        self.services.deadlines_changed = self.replan

    def replan(self, outcome: Outcome) -> None:
        """Bring the outcome's game's jobs in line with its deadline rows after the command."""
        wanted, game_id = outcome.deadlines, outcome.game_id
        if wanted is None or self.queue is None:
            return
        game = self.games.get(game_id)
        if game is not None:
            if outcome.last_seq < game.seq:
                return  # a later command's outcome came first
            for key in [key for key in game.jobs if key not in wanted]:
                self._unplan(game_id, key)
        now = self.services.now()
        for key, due_at in wanted.items():
            self._plan(game_id, key, due_at, now)
        game = self.games.get(game_id)
        if game is not None:
            game.seq = outcome.last_seq

    def _plan(self, game_id: int, key: str, due_at: datetime, now: datetime) -> None:
        """A job at `due_at` for the deadline, in place of one at another time. A due one
        gets none (the sweep runs it), nor one past the edge (a later plan adds it)."""
        game = self.games.get(game_id)
        held = game.jobs.get(key) if game is not None else None
        if held is not None and held[0] == due_at:
            return
        self._unplan(game_id, key)
        if due_at <= now or (self.edge is not None and due_at > self.edge):
            return
        assert self.queue is not None
        name = f"deadline:{game_id}:{key}:{due_at.isoformat()}"
        # In a fresh context: the job (and the deadlines it runs) must not carry the
        # handled update's mark (storage.updates) of the command that planned it.
        job = contextvars.Context().run(
            self.queue.run_once, self._deadline_job, when=due_at, data=(game_id, key), name=name
        )
        self.games.setdefault(game_id, GameJobs()).jobs[key] = (due_at, job)

    def _unplan(self, game_id: int, key: str, ran: Job[CustomContext] | None = None) -> None:
        """Drop the deadline's job; with `ran`, only if it is that job (which ran already)."""
        game = self.games.get(game_id)
        held = game.jobs.get(key) if game is not None else None
        if game is None or held is None or (ran is not None and held[1] is not ran):
            return
        del game.jobs[key]
        if not game.jobs:
            del self.games[game_id]
        if ran is None:
            _remove(held[1])

    def planned(self) -> dict[tuple[int, str], datetime]:
        """The deadlines that have a job: (game, key) -> due_at."""
        return {
            (game_id, key): due_at
            for game_id, game in self.games.items()
            for key, (due_at, _) in game.jobs.items()
        }

    async def _sweep_job(self, context: CustomContext) -> None:
        await self.sweep()
        await self.services.compose_owed()  # what a process that died before it still owes
        if self.queue is not None:
            await self.plan_jobs(self.queue)

    async def plan_jobs(self, queue: JobQueue[CustomContext]) -> None:
        """A one-shot job at each of the earliest upcoming deadlines that has none yet.

        A deadline whose job is at another time keeps it: either a command moved it since
        the read, or another process did, and then the sweeps run it in time."""
        self.queue = queue
        rows = await self.services.store.deadlines.upcoming_times(limit=HORIZON)
        now = self.services.now()
        self.edge = rows[-1][2] if len(rows) >= HORIZON else None
        for game_id, key, due_at in rows:
            game = self.games.get(game_id)
            if game is None or key not in game.jobs:
                self._plan(game_id, key, due_at, now)

    async def _deadline_job(self, context: CustomContext) -> None:
        job = context.job
        if job is not None and isinstance(job.data, tuple):
            game_id, key = job.data
            self._unplan(game_id, key, ran=job)  # APScheduler dropped it already
        await self.sweep()

    async def sweep(self) -> int:
        """Run every due deadline once; returns how many were run.

        Deadlines of one game run in order of their times; different games run side by
        side (a few at a time), which PostgreSQL turns into real parallel work.
        """
        store = self.services.store
        others = await store.workers.beat(self.worker, self.services.now())
        if self.on_peer is not None:
            self._peer_seen(others)
        done = 0
        while True:
            now = self.services.now()
            rows = await store.deadlines.claim_due(self.worker, now, limit=200, lease=LEASE)
            if not rows:
                return done
            by_game: dict[int, list[DeadlineRow]] = {}
            for row in rows:
                by_game.setdefault(row.game_id, []).append(row)
            gate = asyncio.Semaphore(PARALLEL_GAMES)
            groups = by_game.values()
            await asyncio.gather(*(self._run_game(rows, now, gate) for rows in groups))
            done += len(rows)

    async def _run_game(
        self, rows: list[DeadlineRow], now: datetime, gate: asyncio.Semaphore
    ) -> None:
        async with gate:
            for row in rows:
                await self.run_one(row, now)

    async def run_one(self, row: DeadlineRow, now: datetime) -> None:
        """One deadline through the store; a failure releases it for the next sweep."""
        store = self.services.store
        command = row.engine_command(store.registry.codec)
        untimed = isinstance(command, cmd.DetectiveCue | cmd.SendReminder)
        if not untimed and await self._awaits_its_message(row, command, now):
            return
        if not untimed and self.missed_while_down(row, now):
            command = excused(command)
            await self._tell_offline(row)
        try:
            if isinstance(command, cmd.DetectiveCue):  # the detective's own move, if any
                move = await self._detective_move(row.game_id, command, now)
                if move is None:
                    await store.deadlines.complete(row)
                    return
                command = move
            outcome = await store.execute(
                row.game_id, command, now, self.services.presentations.plan_messages
            )
        except RuleError as error:  # a deadline is never refused; log and drop it
            log.warning("deadline %s of game %s refused: %s", row.key, row.game_id, error.code)
            await store.deadlines.complete(row)
            return
        except Exception:  # keep the claim: its lease is the back-off before the next try
            log.exception(
                "deadline %s of game %s failed; retried after its lease", row.key, row.game_id
            )
            return
        await store.deadlines.complete(row)
        if outcome.events:
            self.services.deliver(outcome.handoff)
            self.replan(outcome)
            self.services.follow_up(outcome)

    async def _awaits_its_message(
        self, row: DeadlineRow, command: cmd.Command, now: datetime
    ) -> bool:
        """A clock starts when people can see it: while the message that starts the clock
        this deadline ends (the engine's `unseen_clock`) is still on its way, the deadline is
        postponed by a step instead of run (its delivery's report then gives the clock its
        whole span: bot.delivery.clocks), for at most AWAIT_AT_MOST past its moment. Then
        (a message stuck, a report lost) it runs as it is."""
        if not isinstance(command, cmd.DeadlineCommand):
            return False
        store = self.services.store
        on_the_way = await store.outbox.clocks_on_the_way(row.game_id)
        if not on_the_way:
            return False
        game = await store.load(row.game_id)
        clock, due = deadlines.unseen_clock(game, command), deadlines.due_at(game, command)
        if clock is None or clock not in on_the_way or due is None or now - due > AWAIT_AT_MOST:
            return False
        later = now + AWAIT_STEP
        if await store.deadlines.postpone(row, later):
            self._plan(row.game_id, row.key, later, now)
        return True

    async def _detective_move(
        self, game_id: int, cue: cmd.DetectiveCue, now: datetime
    ) -> cmd.Command | None:
        """What the cued computer detective does now (engine.detectives), from the record
        and its seat's reading of the game (kept beside the notebooks, one think at a time
        per seat); worked out in a thread, so a long think never holds up the other chats."""
        store = self.services.store
        async with self.services.notebooks.reading(game_id, cue.seat) as reading:
            game, events = await store.load(game_id), await store.events(game_id)
            return await asyncio.to_thread(cued_move, game, events, cue, now, reading)

    async def _tell_offline(self, row: DeadlineRow) -> None:
        """Once per game and downtime, before the catch-up: the bot, not the players, was late."""
        ref = await self.services.store.game(row.game_id)
        if ref is None:
            return
        since = self.down_since or row.due_at
        await self.services.tell(
            ref.chat_id,
            "scheduler.was_offline",
            {"due_at": Moment.of(row.due_at)},
            topic_id=ref.topic_id,
            key=f"offline:{row.game_id}:{since.isoformat()}",
        )


def _remove(job: Job[CustomContext]) -> None:
    """Take a job off the queue; one that already ran (or was dropped as missed) is gone."""
    with contextlib.suppress(KeyError):  # APScheduler's JobLookupError
        job.schedule_removal()


def excused(command: cmd.Command) -> cmd.Command:
    """The same deadline, without penalties (a fresh timer for a turn, a refuter or an
    edition's stage): the bot, not the player, was late. Only an excusable kind of
    deadline (the engine's `DeadlineCommand.excusable`, any edition's) is changed."""
    if isinstance(command, cmd.DeadlineCommand) and command.excusable:
        return replace(command, excused=True)
    return command


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def worker_name() -> str:
    """host:pid:token — the token tells a restarted process from its predecessor with the
    same pid (a container's process 1)."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"


def is_dead(holder: str, me: str) -> bool:
    """A worker of this host whose process is gone (or replaced by this one)."""
    host, pid = [*holder.split(":"), "", ""][:2]
    my_host, my_pid, _ = me.split(":")
    if holder == me or host != my_host or not pid.isdigit():
        return False
    return pid == my_pid or not pid_alive(int(pid))


async def release_dead_claims(services: Scheduling, me: str) -> None:
    """Outbox rows and deadlines held by a dead process of this host go back at once."""
    workers = services.store.workers
    for holder in await workers.claim_holders():
        if is_dead(holder, me):
            released = await workers.release_claims(holder)
            log.info("released %d claims of stopped process %s", released, holder)
