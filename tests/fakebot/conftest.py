"""Fixtures of the fake's own tests: the server, a PTB bot and a raw HTTP client on it."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
from telegram import Bot

from fakebot import FakeTelegram
from tests.fakebot.shared import TOKEN


@pytest.fixture
async def server() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram(TOKEN) as fake:
        yield fake


@pytest.fixture
async def bot(server: FakeTelegram) -> AsyncIterator[Bot]:
    async with Bot(TOKEN, base_url=server.base_url) as client:
        yield client


@pytest.fixture
async def http(server: FakeTelegram) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=f"{server.url}/bot{TOKEN}/") as client:
        yield client
