"""The people of `bench.service`: groups set up through the bot, suggestion rounds, echoes.

Every step is an update the fake Bot API queues for the bot; the driver then waits *in the
fake* (`wait_call`, no polling) for the message the person waits for. `Timeline` keeps, per
update, when it was sent and that message's arrival; the last message of each update is
found afterwards in the fake's call log (see `last_messages`).
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

from engine.state import Game
from fakebot import FakeTelegramClient, RemoteGroup, RemoteUser
from simulation.moves import card_name, naming

PATIENCE = 300.0  # seconds a person waits for the bot
BOT_ID = 1000


@dataclass
class Update:
    """One update: its stream, when it was sent, when the awaited message came."""

    stream: int
    sent: float
    awaited: float = 0.0
    last: float = 0.0


@dataclass
class Timeline:
    """The updates of one phase, and the private chats each stream talks in."""

    updates: list[Update] = field(default_factory=list)
    chats: dict[int, set[int]] = field(default_factory=dict)

    def latencies(self) -> list[float]:
        """Seconds from each update to its last message."""
        return [max(u.last, u.awaited) - u.sent for u in self.updates]


def last_messages(timeline: Timeline, calls: list[dict[str, Any]]) -> None:
    """Set each update's last message: the latest call the bot made to its stream's private
    chats before the stream's next update (group posts are shared by a game's two streams,
    so they only count as the awaited message)."""
    by_chat: dict[int, list[float]] = {}
    for call in calls:
        chat = call["params"].get("chat_id")
        if call["status"] == 200 and isinstance(chat, int):
            by_chat.setdefault(chat, []).append(call["at"])
    per_stream: dict[int, list[Update]] = {}
    for update in timeline.updates:
        per_stream.setdefault(update.stream, []).append(update)
    for stream, updates in per_stream.items():
        times = sorted(t for chat in timeline.chats.get(stream, ()) for t in by_chat.get(chat, ()))
        for n, update in enumerate(updates):
            end = updates[n + 1].sent if n + 1 < len(updates) else float("inf")
            inside = [t for t in times if update.sent <= t < end]
            update.last = max(inside, default=update.awaited)


async def _press(
    fake: FakeTelegramClient, user: RemoteUser, call: dict[str, Any], text: str
) -> None:
    message = call["response"]["result"]
    await fake.op(
        "press",
        user_id=user.id,
        chat_id=message["chat"]["id"],
        message_id=message["message_id"],
        text=text,
        timeout=PATIENCE,
    )


@dataclass
class Club:
    """One group of 4–6 players (the first is its admin) and its game."""

    fake: FakeTelegramClient
    group: RemoteGroup
    players: list[RemoteUser]
    hands: dict[int, str] = field(default_factory=dict)  # a card each target holds

    @classmethod
    async def open(cls, fake: FakeTelegramClient, tag: str, size: int) -> Club:
        players = [await fake.add_user(f"P{tag}x{i}", username=f"p{tag}x{i}") for i in range(size)]
        group = await fake.add_group(
            f"Club {tag}", admins=players[:1], members=players[1:], bot_admin=True
        )
        for person in players:
            await person.start_bot()
        return cls(fake, group, players)

    async def _say(self, who: RemoteUser, text: str, pattern: str) -> dict[str, Any]:
        after = time.time()
        await who.send(self.group, text)
        return await self.fake.wait_call(
            after=after, chat_id=self.group.id, pattern=pattern, timeout=PATIENCE
        )

    async def set_up(self) -> None:
        """Settings for long play, a lobby, everyone joins, the admin starts."""
        admin = self.players[0]
        for setting in ("suggestions_per_day", "max_per_target_per_day"):
            await self._say(admin, f"/settings {setting} 1000", "Saved")
        lobby = await self._say(admin, "/newgame", "new game of Cluedo")
        for person in self.players[1:]:
            await _press(self.fake, person, lobby, "Join")
        after = time.time()
        await _press(self.fake, admin, lobby, "Start the game")
        await self.fake.wait_call(
            after=after, chat_id=self.group.id, pattern=r"Day 1\b", timeout=PATIENCE
        )

    def learn(self, game: Game) -> None:
        """Remember a card of each player's hand (suggestions name one, so each is answered)."""
        for person in self.players:
            seat = game.player_of(person.id)
            assert seat is not None
            named = naming(game, seat.hand[0])
            self.hands[person.id] = "; ".join(card_name(c) for c in named)

    def pairs(self) -> list[tuple[RemoteUser, RemoteUser]]:
        """The two interleaved rounds: player 0 asks 1, player 2 asks 3."""
        p = self.players
        return [(p[0], p[1]), (p[2], p[3])]


async def suggestion_round(
    club: Club,
    suggester: RemoteUser,
    target: RemoteUser,
    stream: int,
    timeline: Timeline,
    gate: asyncio.Semaphore | Pacer,
) -> None:
    """A typed suggestion (awaited: the target's prompt), then the target's answer press
    (awaited: the suggester's "shows you")."""
    fake = club.fake
    async with gate:
        update = Update(stream, time.time())
        timeline.updates.append(update)
        await suggester.send(club.group, f"/suggest @{target.username} {club.hands[target.id]}")
        prompt = await fake.wait_call(
            after=update.sent,
            chat_id=target.id,
            pattern=r"Suggestion \d+</b> from",
            timeout=PATIENCE,
        )
        update.awaited = prompt["at"]
    button = prompt["params"]["reply_markup"]["inline_keyboard"][0][0]["text"]
    async with gate:
        update = Update(stream, time.time())
        timeline.updates.append(update)
        await _press(fake, target, prompt, button)
        shown = await fake.wait_call(
            after=update.sent, chat_id=suggester.id, pattern="shows you", timeout=PATIENCE
        )
        update.awaited = shown["at"]


async def play_rounds(clubs: list[Club], rounds: int, concurrency: int, timeline: Timeline) -> None:
    """`rounds` rounds of both streams of every club, at most `concurrency` updates out."""
    gate = asyncio.Semaphore(concurrency)

    async def stream(number: int, club: Club, suggester: RemoteUser, target: RemoteUser) -> None:
        timeline.chats[number] = {suggester.id, target.id}
        for _ in range(rounds):
            await suggestion_round(club, suggester, target, number, timeline, gate)

    streams = [(club, s, t) for club in clubs for s, t in club.pairs()]
    await asyncio.gather(*(stream(n, *args) for n, args in enumerate(streams)))


class Pacer:
    """Lets updates go at a steady `rate` a second (open loop): each `async with` waits for
    the next slot of the schedule, whatever the earlier updates are doing."""

    def __init__(self, rate: float) -> None:
        self.interval = 1.0 / rate
        self.next_at: float | None = None

    async def __aenter__(self) -> None:
        now = time.time()
        self.next_at = now if self.next_at is None else max(now, self.next_at + self.interval)
        await asyncio.sleep(self.next_at - now)

    async def __aexit__(self, *exc: object) -> None:
        return None


async def paced_rounds(clubs: list[Club], rounds: int, rate: float, timeline: Timeline) -> None:
    """`rounds` rounds of both streams of every club, updates sent at `rate` a second."""
    pacer = Pacer(rate)

    async def stream(number: int, club: Club, suggester: RemoteUser, target: RemoteUser) -> None:
        timeline.chats[number] = {suggester.id, target.id}
        for _ in range(rounds):
            await suggestion_round(club, suggester, target, number, timeline, pacer)

    streams = [(club, s, t) for club in clubs for s, t in club.pairs()]
    await asyncio.gather(*(stream(n, *args) for n, args in enumerate(streams)))


async def echo_rounds(
    people: list[RemoteUser], per_person: int, concurrency: int, timeline: Timeline
) -> None:
    """Each person writes `per_person` private messages, one after the other, each awaited
    as the echo; at most `concurrency` out."""
    gate = asyncio.Semaphore(concurrency)

    async def stream(number: int, person: RemoteUser) -> None:
        timeline.chats[number] = {person.id}
        for n in range(per_person):
            async with gate:
                update = Update(number, time.time())
                timeline.updates.append(update)
                text = f"echo {number} {n}"
                await person.send_private(text)
                call = await person.client.wait_call(
                    after=update.sent, chat_id=person.id, pattern=f"^{text}$", timeout=PATIENCE
                )
                update.awaited = call["at"]

    await asyncio.gather(*(stream(n, p) for n, p in enumerate(people)))
