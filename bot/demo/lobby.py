"""The demo's game opened as people open one: each opens the bot's private chat, the first
(the group's admin) sets the chat's language and whatever the edition wants set, opens the
lobby with `/newgame <format>`, the others press Join, the host presses Start. Its seed
comes from the demo's own seed source, given to the bot (`seeds_from`, `Stage`)."""

from __future__ import annotations

import itertools
from collections.abc import Callable

from bot import callbacks as cb
from bot.demo.hands import Hands
from bot.demo.scene import Scene
from locales import DEFAULT_LANGUAGE, t


def seeds_from(seed: int) -> Callable[[], int]:
    """The demo's seed source: `seed` for the first game opened (its deal, envelope and
    dice), the next number for each one after."""
    drawn = itertools.count(seed)
    return lambda: next(drawn) % (1 << 63)


async def open_game(scene: Scene, hands: Hands, format_key: str) -> None:
    """From nothing to a started game; sets `scene.game_id`."""
    host, *others = scene.people
    for person in scene.people:
        await scene.open_private_chat(person)
    if scene.language != DEFAULT_LANGUAGE:
        await scene.say(host, f"/language {scene.language}")
    await hands.begin(scene, host)
    word = t(scene.language, f"edition.words_{format_key}").split(",")[0].strip()
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
