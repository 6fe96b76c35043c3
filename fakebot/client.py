"""``FakeTelegramClient``: drive a fake Telegram server running in another process.

The method names mirror the in-process API (``add_user``, ``add_group``, ``user.send``,
``user.press``, ``group.messages`` ...) but every call is ``await``-ed, and messages come back
as :class:`RemoteMessage` snapshots (plain data, refetch to see later edits); the handles are
in ``remote.py``.
"""

from __future__ import annotations

import asyncio
import inspect
import os
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterable
from pathlib import Path
from typing import Any

import httpx

from .remote import RemoteGroup, RemoteMessage, RemoteUser

REPO_ROOT = Path(__file__).resolve().parents[1]
# Seconds a wait_for goes at most without checking its condition again: one that may read
# anything (a database say), and one about what the bot does in some chats (a safety net).
RECHECK = 0.5
CHATS_RECHECK = 5.0


class FakeTelegramClient:
    """Async client of the ``/_fake`` control API of a fake Telegram server."""

    def __init__(self, url: str, *, process: asyncio.subprocess.Process | None = None):
        self.url = url.rstrip("/")
        self.process = process
        # Every waiting player holds a request open in the fake (wait_change, a press): no
        # pool limit, and no closing and reopening connections beyond httpx's 20 kept.
        unpooled = httpx.Limits(max_connections=None, max_keepalive_connections=None)
        self._http = httpx.AsyncClient(base_url=self.url, timeout=30.0, limits=unpooled)

    @property
    def base_url(self) -> str:
        """What to give the bot as Bot API base URL (``.../bot``)."""
        return f"{self.url}/bot"

    @classmethod
    async def launch(
        cls, token: str = "123:ABC", *, extra_args: Iterable[str] = (), timeout: float = 15.0
    ) -> FakeTelegramClient:
        """Start ``python -m fakebot`` in a new process and connect to it."""
        port_file = Path(tempfile.mkdtemp(prefix="fakebot-")) / "port"
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "fakebot",
            "--port",
            "0",
            "--token",
            token,
            "--port-file",
            str(port_file),
            "--exit-with-parent",
            *extra_args,
            cwd=REPO_ROOT,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        deadline = time.monotonic() + timeout
        while not port_file.exists():
            if process.returncode is not None or time.monotonic() > deadline:
                if process.returncode is None:
                    process.kill()
                    await process.wait()
                raise RuntimeError(
                    f"the fake Telegram process did not start (exit {process.returncode})"
                )
            await asyncio.sleep(0.05)
        port = int(port_file.read_text().strip())
        port_file.unlink()
        port_file.parent.rmdir()
        return cls(f"http://127.0.0.1:{port}", process=process)

    async def aclose(self) -> None:
        """Close the HTTP client and stop the process if this client launched it."""
        await self._http.aclose()
        if self.process is not None and self.process.returncode is None:
            self.process.terminate()
            try:
                await asyncio.wait_for(self.process.wait(), 5.0)
            except TimeoutError:
                self.process.kill()
                await self.process.wait()

    async def __aenter__(self) -> FakeTelegramClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    # -- control operations -----------------------------------------------------------------
    async def op(self, name: str, /, **args: Any) -> Any:
        """Call one control operation (None arguments are left out)."""
        # An operation that waits in the fake (wait_call) answers within its own timeout:
        # the HTTP request must outlast it.
        waits = args.get("timeout")
        limit = httpx.Timeout(30.0 + waits) if isinstance(waits, int | float) else None
        body = {k: v for k, v in args.items() if v is not None}
        if limit is None:
            response = await self._http.post(f"/_fake/{name}", json=body)
        else:
            response = await self._http.post(f"/_fake/{name}", json=body, timeout=limit)
        body = response.json()
        if response.status_code != 200:
            raise ValueError(f"control op {name} failed: {body.get('error', body)}")
        return body["result"]

    async def message_list(self, name: str, **args: Any) -> list[RemoteMessage]:
        """A control operation returning messages."""
        return [RemoteMessage.from_json(m) for m in await self.op(name, **args)]

    async def add_user(
        self,
        first_name: str,
        *,
        username: str | None = None,
        language_code: str | None = "en",
        last_name: str | None = None,
    ) -> RemoteUser:
        """A new user."""
        data = await self.op(
            "add_user",
            first_name=first_name,
            username=username,
            language_code=language_code,
            last_name=last_name,
        )
        return RemoteUser(self, data["id"], data["first_name"], data.get("username"))

    async def add_group(
        self,
        title: str,
        *,
        forum: bool = False,
        admins: Iterable[RemoteUser] = (),
        members: Iterable[RemoteUser] = (),
        owner: RemoteUser | None = None,
        username: str | None = None,
        bot_admin: bool = False,
        announce: bool = False,
        basic: bool = False,
    ) -> RemoteGroup:
        """A supergroup (a basic group if ``basic``) with the bot in it."""
        data = await self.op(
            "add_group",
            title=title,
            forum=forum,
            admins=[u.id for u in admins],
            members=[u.id for u in members],
            owner=owner.id if owner else None,
            username=username,
            bot_admin=bot_admin,
            announce=announce,
            basic=basic,
        )
        return RemoteGroup(self, data["id"], data["title"], data["forum"])

    async def calls(
        self, method: str | None = None, *, since: float | None = None
    ) -> list[dict[str, Any]]:
        """The log of Bot API calls (of one method if given; logged after ``since``)."""
        return await self._rows(self.op("calls", method=method, since=since))

    async def max_send_rate(self, window: float = 1.0, *, since: float = 0.0) -> int:
        """The most posts and edits the bot made in any `window` seconds (by arrival at the
        fake), since `since`: the bot-wide rate, whichever worker sent them."""
        found = await self.op("send_rate", window=window, since=since)
        return int(found["most"])

    async def wait_call(
        self,
        *,
        after: float,
        chat_id: int | None = None,
        pattern: str | None = None,
        method: str = "sendMessage",
        timeout: float = 5.0,
    ) -> dict[str, Any]:
        """The first successful ``method`` call after ``after`` (epoch seconds), for
        ``chat_id``, its text matching ``pattern``; waits in the fake (no polling)."""
        result: dict[str, Any] = await self.op(
            "wait_call",
            after=after,
            chat_id=chat_id,
            pattern=pattern,
            method=method,
            timeout=timeout,
        )
        return result

    async def updates(self) -> list[dict[str, Any]]:
        """Updates not yet confirmed by the bot."""
        return await self._rows(self.op("updates"))

    async def webhook_deliveries(self) -> list[dict[str, Any]]:
        """Every POST of an update to the webhook (update_id, status, error, at)."""
        return await self._rows(self.op("webhook_deliveries"))

    async def bot_api(self, token: str, method: str, **params: Any) -> dict[str, Any]:
        """Call a Bot API method as the bot would (the whole answer, ok or not)."""
        response = await self._http.post(f"/bot{token}/{method}", json=params)
        answer: dict[str, Any] = response.json()
        return answer

    async def commands(
        self, scope: dict[str, Any] | None = None, language_code: str = ""
    ) -> list[dict[str, Any]]:
        """Commands set with setMyCommands."""
        return await self._rows(self.op("commands", scope=scope, language_code=language_code))

    async def fail_next(
        self,
        method: str,
        error_code: int = 429,
        *,
        retry_after: int | None = None,
        times: int = 1,
        description: str | None = None,
        chat_id: int | None = None,
    ) -> None:
        """Make the next call(s) of ``method`` fail (see FakeTelegram.fail_next)."""
        await self.op(
            "fail_next",
            method=method,
            error_code=error_code,
            retry_after=retry_after,
            times=times,
            description=description,
            chat_id=chat_id,
        )

    async def delay_next(
        self,
        method: str,
        seconds: float,
        *,
        times: int = 1,
        chat_id: int | None = None,
        skip: int = 0,
    ) -> None:
        """Deliver the next call(s) of ``method`` but answer late (see FakeTelegram.delay_next)."""
        await self.op(
            "delay_next", method=method, seconds=seconds, times=times, chat_id=chat_id, skip=skip
        )

    @staticmethod
    async def _rows(answer: Awaitable[Any]) -> list[dict[str, Any]]:
        """A control operation's answer that is a list of JSON objects."""
        rows: list[dict[str, Any]] = await answer
        return rows

    async def wait_for(
        self,
        condition: Callable[[], Any],
        timeout: float = 5.0,
        *,
        chats: Iterable[int] | None = None,
    ) -> Any:
        """Check a (sync or async) ``condition`` until truthy (returns its value); TimeoutError
        after ``timeout``. Between checks it waits in the fake for the bot's next Bot API
        call, at most RECHECK seconds (the condition may read what the fake does not see, a
        database say): no polling. With ``chats`` the condition is about what the bot does
        in those chats: only a call about one of them wakes it (at most CHATS_RECHECK)."""
        deadline = time.monotonic() + timeout
        watched = sorted(set(chats)) if chats is not None else None
        recheck = RECHECK if watched is None else CHATS_RECHECK
        seen = await self.op("wait_change")
        while True:
            result = condition()
            if inspect.isawaitable(result):
                result = await result
            if result:
                return result
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"timed out after {timeout}s waiting for {condition}")
            seen = await self.op(
                "wait_change", since=seen, chats=watched, timeout=min(left, recheck)
            )
