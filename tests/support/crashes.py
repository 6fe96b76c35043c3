"""A busy two-game run of the real `whodunit run`, killed with SIGKILL again and again.

`Killable` runs the process (its output appended to a file, so a full pipe never stalls
it) and kills and restarts it (the next process imported while the last one runs:
tests/support/warm_bot.py); `Club` is one group of four players who play a game by
suggestions, answer presses and /status, waiting for the bot and retrying nothing;
`doubles` counts what Telegram (the fake) received twice.
"""

from __future__ import annotations

import asyncio
import random
import re
import signal
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fakebot import FakeTelegramClient, RemoteGroup, RemoteMessage, RemoteUser
from storage.service import Store
from tests.support.play import card_name, naming
from tests.support.processes import go, never_go, warm_bot

BOT_ID = 1000
PATIENCE = 90.0  # seconds a player waits for the bot (it may be down, then catching up)


@dataclass
class Killable:
    """The bot process, started again after each kill."""

    env: dict[str, str]
    cwd: Path
    log: Path
    fake: FakeTelegramClient
    process: asyncio.subprocess.Process | None = None
    spare: asyncio.subprocess.Process | None = None  # the next one, imported, not running
    starts: int = 0
    kills: list[float] = field(default_factory=list)  # wall-clock times of the kills

    async def warm(self) -> None:
        """Start the next process up to its imports (it runs when `start` says go)."""
        if self.spare is None:
            with self.log.open("ab") as out:
                self.spare = await warm_bot(self.env, self.cwd, out)

    async def start(self, *, warm_next: bool = False) -> None:
        """`whodunit run`: the warmed process told to go (warmed now if there is none);
        `warm_next`: the next one starts its imports at once."""
        await self.warm()
        assert self.spare is not None
        self.process, self.spare = self.spare, None
        await go(self.process)
        self.starts += 1
        if warm_next:
            await self.warm()

    async def polling(self, timeout: float = 60.0) -> None:
        """Wait until the latest start has reached its polling loop."""

        async def ready() -> bool:
            return len(await self.fake.calls("deleteWebhook")) >= self.starts

        await self.fake.wait_for(ready, timeout)

    async def kill(self) -> None:
        assert self.process is not None
        self.kills.append(time.time())
        self.process.send_signal(signal.SIGKILL)
        await self.process.wait()

    async def stop(self) -> int | None:
        """SIGTERM, and the exit code (None if it had to be killed); a spare just exits."""
        if self.spare is not None:
            await never_go(self.spare)
            self.spare = None
        process = self.process
        if process is None or process.returncode is not None:
            return process.returncode if process else None
        process.send_signal(signal.SIGTERM)
        try:
            return await asyncio.wait_for(process.wait(), 30)
        except TimeoutError:
            process.kill()
            await process.wait()
            return None

    async def keep_killing(self, times: int, low: float = 0.1, high: float = 1.2) -> None:
        """Kill at a random moment after each start, `times` times, starting again each time."""
        for n in range(times):
            await self.polling()
            await self.warm()
            await asyncio.sleep(random.uniform(low, high))
            await self.kill()
            await self.start(warm_next=n < times - 1)
        await self.polling()


@dataclass
class Club:
    """One group and its four players (the first is the admin); what they did and saw."""

    fake: FakeTelegramClient
    group: RemoteGroup
    players: list[RemoteUser]
    game_id: int = 0
    rounds: int = 0
    statuses: list[RemoteMessage] = field(default_factory=list)
    shown_to: Counter[int] = field(default_factory=Counter)

    @classmethod
    async def open(cls, fake: FakeTelegramClient, n: int) -> Club:
        players = [await fake.add_user(f"Player{n}{i}", username=f"p{n}x{i}") for i in range(4)]
        group = await fake.add_group(
            f"Club {n}", admins=players[:1], members=players[1:], bot_admin=True
        )
        for person in players:
            await person.start_bot()
        return cls(fake, group, players)

    async def bot_posts(self) -> list[RemoteMessage]:
        return [m for m in await self.group.messages() if m.from_user_id == BOT_ID]

    async def wait_post(self, pattern: str, count: int = 1) -> list[RemoteMessage]:
        async def found() -> list[RemoteMessage]:
            posts = [m for m in await self.bot_posts() if re.search(pattern, m.text)]
            return posts if len(posts) >= count else []

        result: list[RemoteMessage] = await self.fake.wait_for(
            found, PATIENCE, chats=[self.group.id]
        )
        return result

    async def start_game(self, store: Store) -> None:
        admin = self.players[0]
        for setting in ("suggestions_per_day", "max_per_target_per_day"):
            await admin.send(self.group, f"/settings {setting} 1000")
        await self.wait_post("Saved", 2)
        await admin.send(self.group, "/newgame")
        (lobby,) = await self.wait_post("new game of Cluedo")
        for person in self.players[1:]:
            await person.press(lobby, "Join")
        await admin.press(lobby, "Start the game")
        await self.wait_post("Day 1 begins")
        ref = await store.game_for_chat(self.group.id, 0)
        assert ref is not None
        self.game_id = ref.id

    async def play(self, store: Store, done: asyncio.Event, at_least: int) -> None:
        """Rounds until `done` is set and at least `at_least` were played: one player
        suggests to the next, who presses a card; now and then someone asks /status."""
        while not done.is_set() or self.rounds < at_least:
            await self._round(store, self.rounds + 1)
            self.rounds += 1

    async def _round(self, store: Store, number: int) -> None:
        suggester = self.players[(number - 1) % 4]
        target = self.players[number % 4]
        game = await store.load(self.game_id)
        seat = game.player_of(target.id)
        assert seat is not None
        cards = "; ".join(card_name(c) for c in naming(game, seat.hand[number % len(seat.hand)]))
        await suggester.send(self.group, f"/suggest @{target.username} {cards}")
        # A suggester counts their own suggestions, and each player is always suggested to
        # by the one before: the prompt of this round is the suggester's n-th.
        own = rf"Suggestion {(number - 1) // 4 + 1}\b.* to you"
        prompt = await target.wait_private(
            lambda m: bool(re.search(own, m.text)) and bool(m.buttons), PATIENCE
        )
        await target.press(prompt, prompt.buttons[0][0][0], timeout=2.0)
        self.shown_to[suggester.id] += 1
        if random.random() < 0.5:
            asker = random.choice(self.players)
            self.statuses.append(await asker.send(self.group, "/status"))
        want = self.shown_to[suggester.id]

        async def shown() -> bool:
            return len(await _shown(suggester)) >= want

        await self.fake.wait_for(shown, PATIENCE, chats=[suggester.id])


async def _shown(person: RemoteUser) -> list[RemoteMessage]:
    return [m for m in await person.private_messages() if "shows you" in m.text]


async def shown_cards(person: RemoteUser) -> list[RemoteMessage]:
    """The "… shows you …" messages a person received."""
    return await _shown(person)


def _identity(call: dict[str, Any]) -> tuple[Any, ...]:
    params = call["params"]
    reply = (params.get("reply_parameters") or {}).get("message_id")
    return params["chat_id"], params.get("message_thread_id"), reply, params["text"]


def doubles(sends: list[dict[str, Any]]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Each message Telegram answered more than once (same chat, same reply target, same
    text): (the first copy, the extra copy), once per extra copy."""
    answered = [c for c in sends if c["status"] == 200]
    first: dict[tuple[Any, ...], dict[str, Any]] = {}
    extra = []
    for call in sorted(answered, key=lambda c: c["at"]):
        key = _identity(call)
        if key in first:
            extra.append((first[key], call))
        else:
            first[key] = call
    return extra


def kill_gaps(kills: list[float], sends: list[dict[str, Any]]) -> list[float]:
    """For each kill, the seconds since the last send Telegram answered before it."""
    times = sorted(c["at"] for c in sends if c["status"] == 200)
    gaps = []
    for kill in kills:
        before = [t for t in times if t <= kill]
        gaps.append(kill - before[-1] if before else float("inf"))
    return gaps


def nearest_kill(at: float, kills: list[float]) -> float:
    """The kill nearest to a send's answer. It may come just before the answer: the request
    was on its way when the process died, and Telegram delivered it all the same."""
    return min(kills, key=lambda kill: abs(kill - at), default=float("inf"))
