"""The bot's HTTP server: /healthz, /readyz (database reachable, schema at the newest
revision) and /metrics."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from prometheus_client import CONTENT_TYPE_LATEST
from sqlalchemy import text

from bot.web.health import Health, head_revisions
from bot.web.server import HttpServer, build_web_app
from storage.database import Database
from storage.migrate import upgrade


async def _get(server: HttpServer, path: str) -> httpx.Response:
    async with httpx.AsyncClient() as client:
        return await client.get(f"http://127.0.0.1:{server.port}{path}")


@pytest.fixture
async def database(tmp_path: Path) -> AsyncIterator[Database]:
    url = f"sqlite:///{tmp_path / 'bot.db'}"
    await upgrade(url)
    db = Database(url)
    yield db
    await db.dispose()


async def _serving(health: Health) -> HttpServer:
    server = HttpServer(build_web_app(health), "127.0.0.1", 0, drain_seconds=1)
    await server.start()
    return server


async def test_ready_at_the_newest_schema_and_503_when_behind(database: Database) -> None:
    server = await _serving(Health(lambda: database))
    try:
        assert (await _get(server, "/healthz")).status_code == 200
        ready = await _get(server, "/readyz")
        assert (ready.status_code, ready.text) == (200, "ready")
        await database.run_write(
            lambda c: c.execute(text("UPDATE alembic_version SET version_num = '0005'"))
        )
        behind = await _get(server, "/readyz")
        assert behind.status_code == 503
        assert behind.text == f"schema at 0005, expected {min(head_revisions())}"
        assert (await _get(server, "/healthz")).status_code == 200  # alive all the same
    finally:
        await server.stop()


async def test_503_while_starting_stopping_or_with_the_database_down() -> None:
    down = Database("postgresql+asyncpg://whodunit@127.0.0.1:9/none")  # nothing listens
    found: list[Database | None] = [None]
    health = Health(lambda: found[0], timeout=5)
    server = await _serving(health)
    try:
        starting = await _get(server, "/readyz")
        assert (starting.status_code, starting.text) == (503, "starting")
        found[0] = down
        unreachable = await _get(server, "/readyz")
        assert (unreachable.status_code, unreachable.text) == (503, "database unreachable")
        health.stopping = True
        assert (await _get(server, "/readyz")).text == "stopping"
    finally:
        await server.stop()
        await down.dispose()


async def test_metrics_in_prometheus_text_format() -> None:
    server = await _serving(Health(lambda: None))
    try:
        answer = await _get(server, "/metrics")
    finally:
        await server.stop()
    assert answer.status_code == 200
    assert answer.headers["content-type"] == CONTENT_TYPE_LATEST
    assert "# TYPE python_info gauge" in answer.text
