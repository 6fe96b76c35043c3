"""python-telegram-bot's requests over aiohttp instead of httpx.

Measured under load (bench/service.py, py-spy), httpx's connection pool cost more CPU than
the rest of the bot: every request looks at each pooled connection (a poll() per idle one)
and runs through anyio's layers. aiohttp (already the web server's library) does the same
work in a fraction of the time. Same contract as PTB's HTTPXRequest: parameters sent as a
form (multipart when a file goes along), timeouts raised as TimedOut, other failures as
NetworkError; a request that certainly never reached Telegram (no connection could be made
or taken from the pool in time) carries `NotSent` as its cause.
"""

from __future__ import annotations

from types import MappingProxyType

import aiohttp
from telegram.error import NetworkError, TimedOut
from telegram.request import BaseRequest, RequestData

CONNECT_TIMEOUT = 5.0
READ_TIMEOUT = 5.0
WRITE_TIMEOUT = 5.0
POOL_TIMEOUT = 1.0
MEDIA_WRITE_TIMEOUT = 20.0
AGENT = MappingProxyType({"User-Agent": BaseRequest.USER_AGENT})
FORM = MappingProxyType(AGENT | {"Content-Type": "application/x-www-form-urlencoded"})
# A timeout as python-telegram-bot passes it: seconds, None (no limit) or its DEFAULT_NONE
# (whose type is private to it; a parameter may take more than the base class's does).
Timeout = object


class NotSent(Exception):
    """The request never left: no connection was made or free in time."""


class AiohttpRequest(BaseRequest):
    """A `BaseRequest` on one aiohttp session with a bounded connection pool."""

    def __init__(self, connections: int = 32, read_timeout: float = READ_TIMEOUT) -> None:
        self.connections = connections
        self._read_timeout = read_timeout
        self._session: aiohttp.ClientSession | None = None

    @property
    def read_timeout(self) -> float | None:
        return self._read_timeout

    async def initialize(self) -> None:
        if self._session is None or self._session.closed:
            connector = aiohttp.TCPConnector(limit=self.connections, keepalive_timeout=60)
            self._session = aiohttp.ClientSession(connector=connector)

    async def shutdown(self) -> None:
        if self._session is not None and not self._session.closed:
            await self._session.close()
        self._session = None

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: Timeout = BaseRequest.DEFAULT_NONE,
        write_timeout: Timeout = BaseRequest.DEFAULT_NONE,
        connect_timeout: Timeout = BaseRequest.DEFAULT_NONE,
        pool_timeout: Timeout = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        if self._session is None or self._session.closed:
            raise RuntimeError("This AiohttpRequest is not initialized!")
        files = request_data.multipart_data if request_data else None
        read = _seconds(read_timeout, self._read_timeout)
        connect = _seconds(connect_timeout, CONNECT_TIMEOUT)
        pool = _seconds(pool_timeout, POOL_TIMEOUT)
        write = _seconds(write_timeout, MEDIA_WRITE_TIMEOUT if files else WRITE_TIMEOUT)
        # aiohttp has no write timeout of its own: the read timeout starts after the body.
        timeout = aiohttp.ClientTimeout(
            total=None,
            connect=None if pool is None or connect is None else pool + connect,
            sock_connect=connect,
            sock_read=None if read is None else read + (write or 0.0),
        )
        body = _body(request_data)
        try:
            async with self._session.request(
                method,
                url,
                data=body,
                headers=FORM if isinstance(body, bytes) else AGENT,
                timeout=timeout,
            ) as response:
                return response.status, await response.read()
        except aiohttp.ConnectionTimeoutError as error:
            raise TimedOut("Timed out before the request was sent") from NotSent(str(error))
        except TimeoutError as error:
            raise TimedOut from error
        except aiohttp.ClientConnectorError as error:
            raise NetworkError(f"aiohttp.{type(error).__name__}: {error}") from NotSent(str(error))
        except aiohttp.ClientError as error:
            raise NetworkError(f"aiohttp.{type(error).__name__}: {error}") from error


def _seconds(value: Timeout, default: float) -> float | None:
    """The seconds asked for: None for no limit, `default` when none was given."""
    if value is None or isinstance(value, int | float):
        return value
    return default  # python-telegram-bot's DEFAULT_NONE (or another default of its own)


def _body(request_data: RequestData | None) -> aiohttp.FormData | bytes | None:
    """The parameters as a form; with files, a multipart form."""
    if request_data is None:
        return None
    files = request_data.multipart_data
    if not files:  # encoded here: aiohttp's FormData would set up a multipart writer first
        return request_data.url_encoded_parameters().encode()
    form = aiohttp.FormData()
    for name, value in request_data.json_parameters.items():
        form.add_field(name, value)
    for name, upload in files.items():
        if isinstance(upload, tuple):
            filename, content, *rest = upload
            content_type = rest[0] if rest else "application/octet-stream"
            form.add_field(name, content, filename=filename, content_type=content_type)
        else:
            form.add_field(name, upload)
    return form
