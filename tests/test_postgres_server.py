"""Under CI (CI=true) an unreachable PostgreSQL fails the tests that need it; locally they skip."""

from __future__ import annotations

import socket

import pytest

from tests.support.postgres import PG_URL, require_server


def _closed_port() -> int:
    """A local port nothing listens on (bound, then released)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


NOWHERE = f"postgresql+asyncpg://postgres@127.0.0.1:{_closed_port()}/test"


def test_an_unreachable_server_fails_under_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="PostgreSQL unreachable"):
        require_server(NOWHERE)


def test_an_unreachable_server_skips_outside_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="PostgreSQL unreachable"):
        require_server(NOWHERE)
    with pytest.raises(pytest.fail.Exception):
        require_server(NOWHERE, ci=True)


def test_a_reachable_server_is_returned(pg_server: str) -> None:
    assert pg_server == PG_URL == require_server(ci=True)
