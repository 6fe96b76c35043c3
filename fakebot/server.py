"""``FakeTelegram``: a real aiohttp HTTP server speaking the Telegram Bot API on 127.0.0.1.

Requests arrive as ``/bot<TOKEN>/<method>`` (GET or POST; query string, JSON,
urlencoded or multipart bodies).  PTB 22 posts ``application/x-www-form-urlencoded`` (or
multipart when it uploads files) where string values are sent as-is and every other value
(numbers, booleans, reply_markup, reply_parameters, lists) as a JSON-encoded string; the
validator in :mod:`.spec` coerces them by their documented types.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from .chats import FakeChat, FakeGroup
from .faults import Faults
from .methods import BotApi
from .spec import ApiError, load_spec
from .users import FakeUser
from .webhook import Webhook
from .world import World

log = logging.getLogger(__name__)
# Methods that post into a chat or change a post there (what Telegram's rate limits count).
POSTING = frozenset(
    {
        "sendMessage",
        "editMessageText",
        "editMessageReplyMarkup",
        "editMessageCaption",
        "editMessageMedia",
        "copyMessage",
        "forwardMessage",
        "sendPhoto",
        "sendDocument",
        "sendPoll",
        "sendDice",
        "sendMediaGroup",
    }
)
_TOKEN = re.compile(r"\d+:[A-Za-z0-9_-]+")


@dataclass
class ApiCall:
    """One request the bot made: canonical method name, the parameters after validation
    (coerced to their documented types, e.g. reply_markup as a dict), HTTP status, response
    body and the request's content type."""

    method: str
    params: dict[str, Any]
    status: int
    response: dict[str, Any]
    content_type: str = ""
    at: float = field(default_factory=time.time)
    received: float = 0.0  # when the request arrived (what Telegram's rate limits count)

    @property
    def ok(self) -> bool:
        """True if Telegram would have accepted the call."""
        return self.status == 200

    def to_json(self) -> dict[str, Any]:
        """JSON-friendly form (uploaded files are shown by name)."""
        params = {k: getattr(v, "filename", v) for k, v in self.params.items()}
        return {
            "method": self.method,
            "params": params,
            "status": self.status,
            "response": self.response,
            "content_type": self.content_type,
            "at": self.at,
            "received": self.received,
        }


class FakeTelegram:
    """A fake Telegram Bot API server plus the simulated world behind it."""

    def __init__(
        self,
        token: str = "123:ABC",
        *,
        bot_id: int = 1000,
        bot_username: str = "whodunit_bot",
        bot_name: str = "Whodunit",
        privacy_mode: bool = True,
        callback_ttl: float = 15.0,
        host: str = "127.0.0.1",
        port: int = 0,
        allow_http_webhooks: bool = False,
        webhook_retry_seconds: float = 0.5,
    ):
        """``allow_http_webhooks``: setWebhook takes http:// URLs on any port (tests)."""
        self.token = token
        self.host, self.port = host, port
        self.spec = load_spec()
        self.world = World(
            bot_id=bot_id, bot_username=bot_username, bot_name=bot_name, privacy_mode=privacy_mode
        )
        self.api = BotApi(self.world, callback_ttl=callback_ttl)
        self.api.webhook.allow_http = allow_http_webhooks
        self.api.webhook.retry_seconds = webhook_retry_seconds
        self.calls: list[ApiCall] = []
        # Who waits for a call (wait_call, wait_change), by chat id (None: any chat).
        self.call_waiters: dict[int | None, set[asyncio.Future[None]]] = {}
        # Calls logged so far, and the count when one last came for a chat (None: any chat).
        self.changes = 0
        self.changed_at: dict[int | None, int] = {}
        self.faults = Faults()
        self._runner: web.AppRunner | None = None
        self.app = web.Application(client_max_size=64 * 1024**2)
        self.app.router.add_route("*", "/bot{token}/{method}", self._handle)

    # -- lifecycle --------------------------------------------------------------------------
    async def start(self) -> FakeTelegram:
        """Start listening (``port=0`` picks a free port, see :attr:`port`)."""
        self._runner = web.AppRunner(
            self.app, shutdown_timeout=1.0, handler_cancellation=True, access_log=None
        )
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        self.port = self._runner.addresses[0][1]
        return self

    async def stop(self) -> None:
        """Release long polls, stop posting to a webhook and stop the server."""
        self.api.close()
        await self.api.webhook.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeTelegram:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def url(self) -> str:
        """Root URL of the server, e.g. ``http://127.0.0.1:PORT``."""
        return f"http://{self.host}:{self.port}"

    @property
    def base_url(self) -> str:
        """What to give PTB as ``base_url`` (``.../bot``; PTB appends the token)."""
        return f"{self.url}/bot"

    # -- the world --------------------------------------------------------------------------
    @property
    def bot(self) -> FakeUser:
        """The bot's own user."""
        return self.world.bot

    @property
    def webhook(self) -> Webhook:
        """The webhook set with setWebhook, and every POST made to it."""
        return self.api.webhook

    @property
    def updates(self) -> list[dict[str, Any]]:
        """Updates not yet confirmed by the bot."""
        return self.world.updates

    def add_user(
        self,
        first_name: str,
        *,
        username: str | None = None,
        language_code: str | None = "en",
        last_name: str | None = None,
    ) -> FakeUser:
        """A new user (who has not started the bot yet)."""
        return self.world.add_user(
            first_name, username=username, language_code=language_code, last_name=last_name
        )

    def add_group(
        self,
        title: str,
        *,
        forum: bool = False,
        admins: Iterable[FakeUser] = (),
        members: Iterable[FakeUser] = (),
        owner: FakeUser | None = None,
        username: str | None = None,
        bot_admin: bool = False,
        announce: bool = False,
        basic: bool = False,
    ) -> FakeGroup:
        """A supergroup the bot is a member of (``owner`` defaults to the first admin).

        With ``announce`` the bot gets the my_chat_member and new_chat_members updates of
        being added; otherwise the group simply already contains the bot. With ``basic``
        it is a basic group, which :meth:`FakeGroup.migrate` upgrades to a supergroup.
        """
        return self.world.add_group(
            title,
            forum=forum,
            admins=admins,
            members=members,
            owner=owner,
            username=username,
            bot_admin=bot_admin,
            announce=announce,
            basic=basic,
        )

    def chat(self, chat_id: int | str) -> FakeChat | None:
        """A chat by id (private chats use the user's id) or "@username"."""
        return self.world.chat(chat_id)

    def commands(
        self, scope: dict[str, Any] | None = None, language_code: str = ""
    ) -> list[dict[str, Any]]:
        """The commands set with setMyCommands for a scope and language."""
        key = json.dumps(scope or {"type": "default"}, sort_keys=True), language_code
        return self.api.commands.get(key, [])

    async def wait_for(self, condition: Callable[[], Any], timeout: float = 5.0) -> Any:
        """Poll ``condition`` until truthy (returns its value); TimeoutError after ``timeout``."""
        return await self.world.wait_for(condition, timeout)

    def send_rate(self, window: float = 1.0, since: float = 0.0) -> tuple[int, float]:
        """The most posts and edits the bot made (by arrival) in any `window` seconds since
        `since`, the bot-wide rate Telegram limits; and the start of that window."""
        moments = sorted(
            c.received for c in self.calls if c.method in POSTING and c.received >= since
        )
        best, start, first = 0, 0.0, 0
        for last, moment in enumerate(moments):
            while moments[first] <= moment - window:
                first += 1
            if last - first + 1 > best:
                best, start = last - first + 1, moments[first]
        return best, start

    def calls_to(self, method: str) -> list[ApiCall]:
        """Logged calls of one method (case-insensitive)."""
        return [c for c in self.calls if c.method.lower() == method.lower()]

    # -- fault injection --------------------------------------------------------------------
    def fail_next(
        self,
        method: str,
        error_code: int = 429,
        *,
        retry_after: int | None = None,
        times: int = 1,
        description: str | None = None,
        chat_id: int | None = None,
    ) -> None:
        """Make the next call(s) of ``method`` fail (see :meth:`Faults.fail_next`)."""
        self.faults.fail_next(
            method,
            error_code,
            retry_after=retry_after,
            times=times,
            description=description,
            chat_id=chat_id,
        )

    def delay_next(
        self,
        method: str,
        seconds: float,
        *,
        times: int = 1,
        chat_id: int | None = None,
        skip: int = 0,
    ) -> None:
        """Answer the next call(s) of ``method`` late (see :meth:`Faults.delay_next`)."""
        self.faults.delay_next(method, seconds, times=times, chat_id=chat_id, skip=skip)

    # -- HTTP -------------------------------------------------------------------------------
    async def _handle(self, request: web.Request) -> web.Response:
        received = time.time()
        name = request.match_info["method"]
        params: dict[str, Any] = {}
        method = self.spec.method_name(name) or name
        try:
            token = request.match_info["token"]
            if not _TOKEN.fullmatch(token):
                raise ApiError(404, "Not Found")  # what Telegram answers for a malformed token
            if token != self.token:
                raise ApiError(401, "Unauthorized")
            if self.spec.method_name(name) is None:
                raise ApiError(404, "Not Found")
            params = await _read_params(request)
            fault = self.faults.take_fault(method, params)
            if fault is not None:
                raise fault
            params = self.spec.validate_request(method, params)
            result = await self.api.call(method, params)
            self._check_result(method, result)
            status, body = 200, {"ok": True, "result": result}
            delay = self.faults.take_delay(method, params)
            if delay:
                self._log(ApiCall(method, params, status, body, request.content_type), received)
                await asyncio.sleep(delay)  # the client may give up: the call is logged already
                return web.json_response(body, status=status)
        except ApiError as err:
            status, body = err.code, err.to_json()
        except Exception as err:  # a bug in the fake: answer like Telegram's 500, loudly
            log.exception("fake telegram crashed in %s", method)
            status = 500
            body = ApiError(500, f"Internal Server Error: fake crashed: {err!r}").to_json()
        self._log(ApiCall(method, params, status, body, request.content_type), received)
        if status != 200:
            log.info("fake telegram: %s -> %s %s", method, status, body.get("description"))
        return web.json_response(body, status=status)

    def _log(self, call: ApiCall, received: float | None = None) -> None:
        """Log a call and wake whoever waits for a call to its chat (``wait_call``)."""
        call.received = call.at if received is None else received
        self.calls.append(call)
        self.changes += 1
        chat = call.params.get("chat_id")
        for key in {chat if isinstance(chat, int) else None, None}:
            self.changed_at[key] = self.changes
            for future in self.call_waiters.pop(key, ()):
                if not future.done():
                    future.set_result(None)

    def _check_result(self, method: str, result: Any) -> None:
        """Refuse to answer with an object real Telegram would not send (a bug in the fake)."""
        returns = self.spec.methods[method]["returns"]
        errors = min((self.spec.conformance_errors(t, result) for t in returns), key=len)
        if errors:
            raise ApiError(
                500, f"Internal Server Error: the fake built an invalid {returns}: {errors[:5]}"
            )


async def _read_params(request: web.Request) -> dict[str, Any]:
    """Parameters from the query string and a JSON, urlencoded or multipart body."""
    params: dict[str, Any] = dict(request.query)
    if not request.can_read_body:
        return params
    if request.content_type == "application/json":
        try:
            body = await request.json()
        except ValueError:
            raise ApiError(400, "Bad Request: can't parse JSON request body") from None
        if not isinstance(body, dict):
            raise ApiError(400, "Bad Request: the JSON body must be an object")
        params.update(body)
    else:
        form = await request.post()
        params.update({key: form.getall(key)[-1] for key in form})
    return params
