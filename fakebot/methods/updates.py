"""Bot API methods by which updates reach the bot (getUpdates, the webhook) and the answer
to a callback query."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from ..messages import CallbackAnswer
from ..spec import ApiError, bad_request
from ..webhook import Webhook
from ..world import World
from .access import Params, not_implemented

CONFLICT = (
    "Conflict: terminated by other getUpdates request; "
    "make sure that only one bot instance is running"
)
QUERY_INVALID = "query is too old and response timeout expired or query ID is invalid"
MAX_ALERT = 200


class Updates:
    """getUpdates (long polling, one poll at a time), the webhook methods and
    answerCallbackQuery."""

    def __init__(self, world: World, webhook: Webhook, *, callback_ttl: float = 15.0):
        self.world = world
        self.webhook = webhook
        self.callback_ttl = callback_ttl
        self.closed = False
        self.poll: asyncio.Future[None] | None = None

    def close(self) -> None:
        """Release long polls (server shutdown)."""
        self.closed = True
        self.world.notify()

    async def on_answerCallbackQuery(self, params: Params) -> bool:
        query = self.world.callbacks.get(params["callback_query_id"])
        if query is None or query.answer is not None:
            raise bad_request(QUERY_INVALID)
        if time.monotonic() - query.created > self.callback_ttl:
            raise bad_request(QUERY_INVALID)
        if len(params.get("text") or "") > MAX_ALERT:
            raise bad_request("MESSAGE_TOO_LONG")
        query.answer = CallbackAnswer(
            True, params.get("text"), params.get("show_alert", False), params.get("url")
        )
        if not query.future.done():
            query.future.set_result(query.answer)
        return True

    async def on_setWebhook(self, params: Params) -> bool:
        if "certificate" in params or "ip_address" in params:
            raise not_implemented("setWebhook with a certificate or an IP address")
        return self.webhook.set(params)

    async def on_deleteWebhook(self, params: Params) -> bool:
        self.webhook.delete(bool(params.get("drop_pending_updates")))
        return True

    async def on_getWebhookInfo(self, params: Params) -> dict[str, Any]:
        return self.webhook.info()

    async def on_getUpdates(self, params: Params) -> list[dict[str, Any]]:
        world = self.world
        self.webhook.refuse_get_updates()
        if "allowed_updates" in params:
            world.allowed_updates = params["allowed_updates"]
        offset = params.get("offset")
        if offset is not None and offset < 0:
            del world.updates[: max(0, len(world.updates) + offset)]
        elif offset:
            world.updates[:] = [u for u in world.updates if u["update_id"] >= offset]
        limit = min(max(params.get("limit", 100), 1), 100)
        if self.poll is not None and not self.poll.done():
            self.poll.set_exception(ApiError(409, CONFLICT))
        mine: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.poll = mine
        deadline = time.monotonic() + max(0, params.get("timeout", 0))
        try:
            while not world.updates and not self.closed:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                change = world.waiter()
                try:
                    await asyncio.wait(
                        [mine, change], timeout=left, return_when=asyncio.FIRST_COMPLETED
                    )
                finally:
                    change.cancel()
                if mine.done():
                    mine.result()
        finally:
            if not mine.done():
                mine.cancel()
        return world.updates[:limit]
