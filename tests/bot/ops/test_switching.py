"""The running bot lets the event loop back in quickly while worker threads compute."""

from __future__ import annotations

import sys
from types import SimpleNamespace
from typing import Any

import pytest

from bot.switching import SWITCH_SECONDS
from bot.web import serve


async def test_whodunit_run_shortens_the_switch_interval(monkeypatch: pytest.MonkeyPatch) -> None:
    served: list[object] = []

    async def polling(application: Any, config: Any) -> None:
        served.append(sys.getswitchinterval())

    before = sys.getswitchinterval()
    monkeypatch.setattr(serve, "serve_polling", polling)
    monkeypatch.setattr(serve, "settle_startup_objects", lambda: 0)
    try:
        await serve.run(SimpleNamespace(), SimpleNamespace(webhook_mode=False))  # type: ignore[arg-type]
    finally:
        sys.setswitchinterval(before)
    assert served == [SWITCH_SECONDS]
    assert before > SWITCH_SECONDS
