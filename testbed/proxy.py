"""The round-robin reverse proxy in front of several `whodunit run` webhook workers (what
Caddy is in deploy/compose.yaml): each update the fake posts goes to the next worker; a worker
that cannot be reached is skipped (a proxy's passive health check), so the update goes to
another. `python -m bench.proxy` runs it as its own process."""

from __future__ import annotations

import itertools

import aiohttp
from aiohttp import web

from testbed.processes import free_port


class RoundRobin:
    """Forwards each POST to the next worker in turn; skips one that refuses connections."""

    def __init__(self, ports: list[int]) -> None:
        self.ports = ports
        self.turn = itertools.count()
        self.taken: dict[int, int] = dict.fromkeys(ports, 0)  # 2xx answers per worker port
        self.port = free_port()
        self._runner: web.AppRunner | None = None
        self._session: aiohttp.ClientSession | None = None

    async def start(self) -> None:
        app = web.Application()
        app.router.add_post("/{path:.*}", self._forward)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", self.port).start()
        self._session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=60))

    async def stop(self) -> None:
        if self._session is not None:
            await self._session.close()
        if self._runner is not None:
            await self._runner.cleanup()

    async def _forward(self, request: web.Request) -> web.Response:
        assert self._session is not None
        body = await request.read()
        headers = {
            k: v
            for k, v in request.headers.items()
            if k.lower() in ("content-type", "x-telegram-bot-api-secret-token")
        }
        first = next(self.turn)
        for step in range(len(self.ports)):
            port = self.ports[(first + step) % len(self.ports)]
            url = f"http://127.0.0.1:{port}{request.path}"
            try:
                async with self._session.post(url, data=body, headers=headers) as answer:
                    text = await answer.read()
                    if 200 <= answer.status < 300:
                        self.taken[port] += 1
                    return web.Response(status=answer.status, body=text)
            except (aiohttp.ClientConnectionError, OSError):
                continue  # that worker is down: the next one
        return web.Response(status=502, text="no worker reachable")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/telegram"
