"""The webhook side of the fake: setWebhook's checks, and posting updates as Telegram does.

While a webhook is set, getUpdates is refused (409) and every pending update is POSTed to
the URL with the ``X-Telegram-Bot-Api-Secret-Token`` header: up to ``max_connections``
requests at once, one at a time per chat (a chat's next update waits for the answer to
its previous one). An update leaves the queue only on a 2xx answer; a refusal, an error
or a timeout is recorded as the last error and the update is posted again later.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import aiohttp

from .spec import ApiError, bad_request
from .world import World

log = logging.getLogger(__name__)

SECRET = re.compile(r"[A-Za-z0-9_-]{1,256}")
PORTS = (80, 88, 443, 8443)
GET_UPDATES_CONFLICT = (
    "Conflict: can't use getUpdates method while webhook is active; "
    "use deleteWebhook to delete the webhook first"
)
MAX_BACKOFF = 60.0


@dataclass
class Delivery:
    """One POST of an update to the webhook: the HTTP status, or the error instead."""

    update_id: int
    status: int | None
    error: str | None = None
    secret: str = ""
    update: dict[str, Any] = field(default_factory=dict)
    at: float = field(default_factory=time.time)

    @property
    def ok(self) -> bool:
        return self.status is not None and 200 <= self.status < 300


class Webhook:
    """The webhook as Telegram keeps it: settings, last error, and the delivery loop."""

    def __init__(
        self,
        world: World,
        *,
        allow_http: bool = False,
        timeout: float = 10.0,
        retry_seconds: float = 0.5,
    ) -> None:
        self.world = world
        self.allow_http = allow_http
        self.timeout = timeout
        self.retry_seconds = retry_seconds
        self.url = ""
        self.secret_token = ""
        self.max_connections = 40
        self.last_error_date: int | None = None
        self.last_error_message: str | None = None
        self.deliveries: list[Delivery] = []
        self._in_flight: dict[int, str] = {}  # update id -> its chat key
        self._retry_at: dict[int, float] = {}
        self._attempts: dict[int, int] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._loop_task: asyncio.Task[None] | None = None
        self._session: aiohttp.ClientSession | None = None

    @property
    def active(self) -> bool:
        return bool(self.url)

    # -- Bot API methods -----------------------------------------------------------------------
    def set(self, params: dict[str, Any]) -> bool:
        """setWebhook: check like Telegram, then start posting (an empty URL removes it)."""
        url = params["url"]
        if not url:
            self.delete(bool(params.get("drop_pending_updates")))
            return True
        parts = urlsplit(url)
        if not parts.hostname or parts.scheme not in ("https", "http"):
            raise bad_request("bad webhook: Failed to resolve host: Name or service not known")
        if not self.allow_http:
            if parts.scheme != "https":
                raise bad_request("bad webhook: An HTTPS URL must be provided for webhook")
            if (parts.port or 443) not in PORTS:
                raise bad_request(
                    "bad webhook: Webhook can be set up only on ports 80, 88, 443 or 8443"
                )
        secret = params.get("secret_token", "")
        if secret and not SECRET.fullmatch(secret):
            raise bad_request("secret token contains unallowed characters")
        connections = params.get("max_connections", 40)
        if not 1 <= connections <= 100:
            raise bad_request("bad webhook: max_connections must be between 1 and 100")
        if "allowed_updates" in params:
            self.world.allowed_updates = params["allowed_updates"]
        if params.get("drop_pending_updates"):
            self.world.updates.clear()
        if url != self.url:
            self.last_error_date = self.last_error_message = None
        self.url, self.secret_token, self.max_connections = url, secret, connections
        self._start()
        return True

    def delete(self, drop_pending: bool = False) -> None:
        """deleteWebhook: stop posting (requests under way finish); keep or drop the queue."""
        self.url = ""
        self.secret_token = ""
        self.last_error_date = self.last_error_message = None
        if drop_pending:
            self.world.updates.clear()
        self.world.notify()

    def info(self) -> dict[str, Any]:
        """getWebhookInfo."""
        result: dict[str, Any] = {
            "url": self.url,
            "has_custom_certificate": False,
            "pending_update_count": len(self.world.updates),
        }
        if self.active:
            result["max_connections"] = self.max_connections
            if self.world.allowed_updates:
                result["allowed_updates"] = list(self.world.allowed_updates)
        if self.last_error_date is not None:
            result["last_error_date"] = self.last_error_date
            result["last_error_message"] = self.last_error_message or ""
        return result

    def refuse_get_updates(self) -> None:
        """getUpdates is not allowed while a webhook is set."""
        if self.active:
            raise ApiError(409, GET_UPDATES_CONFLICT)

    # -- posting -------------------------------------------------------------------------------
    def _start(self) -> None:
        if self._loop_task is None or self._loop_task.done():
            self._loop_task = asyncio.create_task(self._run(), name="fake-webhook")
        self.world.notify()

    async def close(self) -> None:
        """Stop posting and wait for requests under way (server shutdown)."""
        self.url = ""
        if self._loop_task is not None:
            self._loop_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._loop_task
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.wait(set(self._tasks))
        if self._session is not None:
            await self._session.close()
            self._session = None

    async def _run(self) -> None:
        while self.active:
            change = self.world.waiter()
            self._launch()
            await asyncio.wait([change], timeout=self._next_retry())
            change.cancel()

    def _next_retry(self) -> float:
        waiting = [at for u, at in self._retry_at.items() if u not in self._in_flight]
        return max(0.01, min(waiting) - time.monotonic()) if waiting else 1.0

    def _launch(self) -> None:
        """Start a POST for each chat's first pending update, up to max_connections."""
        busy = set(self._in_flight.values())
        now = time.monotonic()
        for update in list(self.world.updates):
            if len(self._in_flight) >= self.max_connections:
                return
            key = update_key(update)
            if key in busy:
                continue
            busy.add(key)  # later updates of this chat wait for this one
            update_id = update["update_id"]
            if self._retry_at.get(update_id, 0.0) > now:
                continue
            self._in_flight[update_id] = key
            task = asyncio.create_task(self._post(update), name=f"fake-webhook-{update_id}")
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _post(self, update: dict[str, Any]) -> None:
        update_id = update["update_id"]
        secret, url = self.secret_token, self.url
        headers = {"X-Telegram-Bot-Api-Secret-Token": secret} if secret else {}
        status: int | None = None
        error: str | None = None
        try:
            if self._session is None:
                self._session = aiohttp.ClientSession()
            timeout = aiohttp.ClientTimeout(total=self.timeout)
            async with self._session.post(
                url, json=update, headers=headers, timeout=timeout
            ) as response:
                status = response.status
                await response.read()
                if not 200 <= status < 300:
                    error = f"Wrong response from the webhook: {status} {response.reason}"
        except TimeoutError:
            error = "Read timeout expired"
        except aiohttp.ClientError as exc:
            error = f"Connection failed: {exc.__class__.__name__}"
        finally:
            self._in_flight.pop(update_id, None)
        self.deliveries.append(Delivery(update_id, status, error, secret, update))
        if error is None:
            self.world.updates[:] = [u for u in self.world.updates if u["update_id"] != update_id]
            self._retry_at.pop(update_id, None)
            self._attempts.pop(update_id, None)
        else:
            log.info("fake webhook: update %s not delivered: %s", update_id, error)
            self.last_error_date, self.last_error_message = int(time.time()), error
            tries = self._attempts[update_id] = self._attempts.get(update_id, 0) + 1
            delay = min(MAX_BACKOFF, self.retry_seconds * 2 ** (tries - 1))
            self._retry_at[update_id] = time.monotonic() + delay
        self.world.notify()


def update_key(update: dict[str, Any]) -> str:
    """The chat an update belongs to (a button press: the chat of its message)."""
    for kind, payload in update.items():
        if kind == "update_id" or not isinstance(payload, dict):
            continue
        chat = payload.get("chat") or (payload.get("message") or {}).get("chat")
        if chat is not None:
            return f"chat:{chat['id']}"
        sender = payload.get("from")
        if sender is not None:
            return f"user:{sender['id']}"
    return f"update:{update['update_id']}"
