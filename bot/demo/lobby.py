"""The demo's game opened as people open one: each opens the bot's private chat, the first
(the group's admin) sets the chat's language and whatever the edition wants set, opens the
lobby with `/newgame <format>`, the others press Join, the host presses Start."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from contextlib import contextmanager

from bot import callbacks as cb
from bot.demo.hands import Hands
from bot.demo.scene import Scene
from locales import DEFAULT_LANGUAGE, t


async def open_game(scene: Scene, hands: Hands, format_key: str, seed: int) -> None:
    """From nothing to a started game; sets `scene.game_id`."""
    host, *others = scene.people
    for person in scene.people:
        await scene.open_private_chat(person)
    if scene.language != DEFAULT_LANGUAGE:
        await scene.say(host, f"/language {scene.language}")
    await hands.begin(scene, host)
    word = t(scene.language, f"edition.words_{format_key}").split(",")[0].strip()
    with seeded(seed):
        await scene.say(host, f"/newgame {word}")
    ref = await scene.stage.services.store.game_for_chat(scene.group.id, 0)
    if ref is None:
        raise RuntimeError("the bot opened no lobby")
    scene.game_id = ref.id
    for person in others:
        found = await scene.group_button(lambda d: d.kind == cb.JOIN and d.game == ref.id)
        if found is None:
            raise RuntimeError("the lobby has no Join button")
        await scene.press(person, found)
    start = await scene.group_button(lambda d: d.kind == cb.START and d.game == ref.id)
    if start is None:
        raise RuntimeError("the lobby has no Start button")
    await scene.press(host, start)


@contextmanager
def seeded(seed: int) -> Iterator[None]:
    """The lobby opened meanwhile gets `seed` (its deal, envelope and dice): the bot draws a
    game's seed with secrets.randbits (bot/handlers/lobby.py) and has no other way in."""
    drawn = secrets.randbits

    def fixed(k: int) -> int:
        return seed % (1 << k)

    secrets.randbits = fixed
    try:
        yield
    finally:
        secrets.randbits = drawn
