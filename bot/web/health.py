"""Liveness, readiness and Prometheus metrics for an orchestrator and a scraper.

Liveness is the process answering at all. Readiness asks the database for its schema
revision: 200 only when it answers in time and is at the newest Alembic revision, 503
with a short reason otherwise (also while starting and once stopping).
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable

from aiohttp import web
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from sqlalchemy.engine import Connection

from storage.database import Database
from storage.migrate import alembic_config

log = logging.getLogger(__name__)

CHECK_SECONDS = 3.0  # a database slower than this to answer counts as down


@functools.cache
def head_revisions() -> frozenset[str]:
    """The newest revision(s) of the migrations shipped with this code."""
    return frozenset(ScriptDirectory.from_config(alembic_config()).get_heads())


def _current_revisions(connection: Connection) -> frozenset[str]:
    return frozenset(MigrationContext.configure(connection).get_current_heads())


class Health:
    """The answers of /healthz, /readyz and /metrics; `database` finds the open database."""

    def __init__(
        self, database: Callable[[], Database | None], *, timeout: float = CHECK_SECONDS
    ) -> None:
        self.database = database
        self.timeout = timeout
        self.stopping = False

    async def not_ready(self) -> str | None:
        """Why the bot should get no traffic now, or None when it is ready."""
        if self.stopping:
            return "stopping"
        db = self.database()
        if db is None:
            return "starting"
        try:
            current = await asyncio.wait_for(db.run_read(_current_revisions), self.timeout)
        except TimeoutError:
            return "database did not answer in time"
        except Exception as error:
            log.warning("readiness: database unreachable (%s)", type(error).__name__)
            return "database unreachable"
        heads = head_revisions()
        if current != heads:
            found = ", ".join(sorted(current)) or "empty"
            return f"schema at {found}, expected {', '.join(sorted(heads))}"
        return None

    async def healthz(self, request: web.Request) -> web.Response:
        return web.Response(text="ok")

    async def readyz(self, request: web.Request) -> web.Response:
        reason = await self.not_ready()
        if reason is None:
            return web.Response(text="ready")
        return web.Response(status=503, text=reason)

    async def metrics(self, request: web.Request) -> web.Response:
        return web.Response(body=generate_latest(), headers={"Content-Type": CONTENT_TYPE_LATEST})
