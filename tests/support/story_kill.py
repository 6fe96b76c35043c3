"""A classic (table) game of three played through the fake Bot API against the real
`whodunit run`, ended at once by a right accusation on the first turn; and the real bot
whose stories never get composed (tests/support/stalled_story.py), to kill between a
game's end and its story."""

from __future__ import annotations

import os
import re
import sys

from sqlalchemy import select

from engine.state import Game, Phase
from fakebot import FakeTelegramClient, RemoteGroup, RemoteMessage, RemoteUser
from locales import t
from storage.models import OutboxRecord
from storage.service import Store
from testbed.processes import REPO_ROOT

BOT_ID = 1000
PATIENCE = 60.0
STORY = t("en", "story.title").replace("<b>", "").replace("</b>", "")


def stalled_command() -> list[str]:
    """The bot whose stories never get composed (run with `stalled_env`)."""
    return [sys.executable, "-m", "tests.support.stalled_story"]


def stalled_env(env: dict[str, str]) -> dict[str, str]:
    """`env` with this repository first on the module path (for `stalled_command`)."""
    path = os.pathsep.join(p for p in (str(REPO_ROOT), env.get("PYTHONPATH")) if p)
    return {**env, "PYTHONPATH": path}


async def bot_posts(group: RemoteGroup) -> list[RemoteMessage]:
    return [m for m in await group.messages() if m.from_user_id == BOT_ID]


async def wait_post(fake: FakeTelegramClient, group: RemoteGroup, pattern: str) -> RemoteMessage:
    """The bot's first post in the group that matches `pattern`."""

    async def found() -> RemoteMessage | None:
        hits = [m for m in await bot_posts(group) if re.search(pattern, m.text)]
        return hits[0] if hits else None

    post: RemoteMessage = await fake.wait_for(found, PATIENCE, chats=[group.id])
    return post


async def stories(group: RemoteGroup) -> int:
    """How many story posts the group got."""
    return sum(m.text.startswith(STORY) for m in await bot_posts(group))


async def story_status(store: Store, game_id: int) -> str | None:
    """The status of the game's story row in the outbox (None: there is none)."""
    o = OutboxRecord
    query = select(o.status).where(o.game_id == game_id, o.key == f"g{game_id}:story")
    found: str | None = await store.db.run_read(lambda conn: conn.execute(query).scalar())
    return found


async def _private_with(person: RemoteUser, button: str, message_id: int = 0) -> RemoteMessage:
    """The person's latest private message with `button` (message `message_id` if given)."""

    async def check() -> RemoteMessage | None:
        found = [
            m
            for m in await person.private_messages()
            if any(b[0] == button for row in m.buttons for b in row)
            and message_id in (0, m.message_id)
        ]
        return found[-1] if found else None

    message: RemoteMessage = await person.client.wait_for(check, PATIENCE, chats=[person.id])
    return message


async def play_to_a_right_accusation(
    fake: FakeTelegramClient, group: RemoteGroup, people: list[RemoteUser], store: Store
) -> int:
    """The first opens a classic game, the others join, the first starts; the first player
    to move accuses rightly at once (the envelope read from the database): the game's id,
    ended."""
    admin = people[0]
    await admin.send(group, "/newgame classic")
    lobby = await wait_post(fake, group, "new game")
    for person in people[1:]:
        await person.press(lobby, t("en", "button.join"), timeout=PATIENCE / 2)
    await admin.press(lobby, t("en", "button.start"), timeout=PATIENCE / 2)

    async def started() -> tuple[int, Game] | None:
        ref = await store.game_for_chat(group.id, 0)
        game = await store.load(ref.id) if ref is not None else None
        return (ref.id, game) if ref is not None and game and game.table is not None else None

    found: tuple[int, Game] = await fake.wait_for(started, PATIENCE)
    game_id, game = found
    assert game.table is not None and game.envelope is not None
    mover = next(p for p in people if p.id == game.players[game.table.current].user)
    prompt = await _private_with(mover, t("en", "button.accuse"))
    await mover.press(prompt, t("en", "button.accuse"), timeout=PATIENCE / 2)
    composer = await _private_with(mover, t("en", f"card.{game.envelope[0]}"))
    for card in game.envelope:
        shown = await _private_with(mover, t("en", f"card.{card}"), composer.message_id)
        await mover.press(shown, t("en", f"card.{card}"), timeout=PATIENCE / 2)
    confirm = t("en", "button.confirm_accusation")
    shown = await _private_with(mover, confirm, composer.message_id)
    await mover.press(shown, confirm, timeout=PATIENCE / 2)
    await wait_post(fake, group, rf"@{mover.username} wins")
    assert (await store.load(game_id)).phase is Phase.ENDED
    return game_id
