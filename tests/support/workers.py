"""Several real `whodunit run` webhook workers on one database, behind a round-robin proxy.

`RoundRobin` is the reverse proxy (testbed/proxy.py). `Worker` runs one process, its output in
a file. `Table` is one group of three who open, join, start and end a game by a right
accusation, waiting for the bot and retrying nothing.
"""

from __future__ import annotations

import asyncio
import re
import signal
import time
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp

from engine.state import Game, Phase
from fakebot import FakeTelegramClient, RemoteGroup, RemoteMessage, RemoteUser
from storage.service import Store
from testbed.processes import free_port as free_port
from testbed.processes import whodunit_command
from testbed.proxy import RoundRobin as RoundRobin
from tests.support.play import card_name
from tests.support.processes import go, never_go, warm_bot

BOT_ID = 1000
PATIENCE = 240.0  # seconds a player waits for the bot under the full load
PRESS = 25.0  # seconds a press waits for its answer (the fake client's own limit: 30 s)


@dataclass
class Worker:
    """One `whodunit run` process in webhook mode on its own port."""

    env: dict[str, str]
    cwd: Path
    log: Path
    port: int
    process: asyncio.subprocess.Process | None = None
    command: list[str] = field(default_factory=whodunit_command)  # the bot, without "run"
    spare: asyncio.subprocess.Process | None = None  # the next `whodunit run`, imported

    async def warm(self) -> None:
        """Start the next process up to its imports (tests/support/warm_bot.py): the next
        `start` runs it at once."""
        env = {**self.env, "WHODUNIT_HTTP_PORT": str(self.port)}
        with self.log.open("ab") as out:
            self.spare = await warm_bot(env, self.cwd, out)

    async def start(self) -> None:
        if self.spare is not None:
            self.process, self.spare = self.spare, None
            await go(self.process)
            return
        env = {**self.env, "WHODUNIT_HTTP_PORT": str(self.port)}
        with self.log.open("ab") as out:
            self.process = await asyncio.create_subprocess_exec(
                *self.command, "run", env=env, cwd=self.cwd, stdout=out, stderr=out
            )

    async def ready(self, timeout: float = 60.0) -> None:
        """Wait until the worker answers its health check."""
        deadline = time.monotonic() + timeout
        async with aiohttp.ClientSession() as session:
            while time.monotonic() < deadline:
                assert self.process is not None and self.process.returncode is None, self.tail()
                try:
                    async with session.get(f"http://127.0.0.1:{self.port}/healthz") as answer:
                        if answer.status == 200:
                            return
                except aiohttp.ClientConnectionError:
                    pass
                await asyncio.sleep(0.2)
        raise TimeoutError(f"worker on port {self.port} not ready:\n{self.tail()}")

    async def signal(self, sig: int, timeout: float = 60.0) -> tuple[int, float]:
        """Send `sig`; the exit code and the seconds the process took to exit."""
        assert self.process is not None
        sent = time.monotonic()
        self.process.send_signal(sig)
        try:
            code = await asyncio.wait_for(self.process.wait(), timeout)
        except TimeoutError:
            self.process.kill()
            await self.process.wait()
            return -999, timeout
        return code, time.monotonic() - sent

    async def stop(self) -> int | None:
        if self.spare is not None:
            await never_go(self.spare)
            self.spare = None
        if self.process is None or self.process.returncode is not None:
            return self.process.returncode if self.process else None
        code, _ = await self.signal(signal.SIGTERM)
        return code

    def tail(self, size: int = 4000) -> str:
        return self.log.read_text(errors="replace")[-size:] if self.log.exists() else ""


@dataclass
class Table:
    """A group of three (the first its admin) and the game they play to its end."""

    fake: FakeTelegramClient
    group: RemoteGroup
    players: list[RemoteUser]
    game_id: int = 0
    steps: list[str] = field(default_factory=list)

    @classmethod
    async def open(cls, fake: FakeTelegramClient, n: int) -> Table:
        players = [await fake.add_user(f"W{n}x{i}", username=f"w{n}x{i}") for i in range(3)]
        group = await fake.add_group(
            f"Table {n}", admins=players[:1], members=players[1:], bot_admin=True
        )
        return cls(fake, group, players)

    async def greet(self) -> None:
        for person in self.players:
            sent = await person.start_bot()
            await person.wait_private(lambda m: "Hello" in m.text, PATIENCE, after=sent.message_id)

    async def wait_post(self, pattern: str) -> RemoteMessage:
        async def found() -> RemoteMessage | None:
            posts = await self.group.messages()
            hits = [m for m in posts if m.from_user_id == BOT_ID and re.search(pattern, m.text)]
            return hits[0] if hits else None

        result: RemoteMessage = await self.fake.wait_for(found, PATIENCE, chats=[self.group.id])
        return result

    async def start_game(self, store: Store) -> None:
        admin = self.players[0]
        await admin.send(self.group, "/settings accusation_window 1m")  # judged a minute on
        await self.wait_post("Saved")
        await admin.send(self.group, "/newgame")
        lobby = await self.wait_post("new game of Cluedo")
        for person in self.players[1:]:
            await person.press(lobby, "Join", timeout=PRESS)
        await admin.press(lobby, "Start the game", timeout=PRESS)
        await self.wait_post("Day 1 begins")
        ref = await store.game_for_chat(self.group.id, 0)
        assert ref is not None
        self.game_id = ref.id
        self.steps.append("started")

    async def accuse_rightly(self, store: Store) -> Game:
        """The admin accuses with the envelope's cards (read from the database)."""
        game = await store.load(self.game_id)
        assert game.envelope is not None
        accuser = self.players[0]
        sent = await accuser.send_private("/accuse")
        composer = await accuser.wait_private(
            lambda m: bool(m.buttons), PATIENCE, after=sent.message_id
        )
        for name in [*(card_name(c) for c in game.envelope), "Yes, I accuse"]:
            shown = await _showing(accuser, composer.message_id, name)
            await accuser.press(shown, name, timeout=PRESS)

        async def ended() -> Game | None:
            now = await store.load(self.game_id)
            return now if now.phase is Phase.ENDED else None

        # The window is judged a minute on: read the game (a replay) once its end is announced
        # in the group, not a hundred games twice a second all that minute.
        await self.wait_post(rf"@{accuser.username} wins")
        result: Game = await self.fake.wait_for(ended, PATIENCE)
        self.steps.append("ended")
        return result


async def _showing(person: RemoteUser, message_id: int, button: str) -> RemoteMessage:
    """The private message `message_id` once it shows `button` (edits come one a second)."""

    async def check() -> RemoteMessage | None:
        for message in await person.private_messages():
            texts = {b[0] for row in message.buttons or [] for b in row}
            if message.message_id == message_id and button in texts:
                return message
        return None

    found: RemoteMessage = await person.client.wait_for(check, PATIENCE, chats=[person.id])
    return found
