"""Every button press is answered (no endless spinner), malformed or forged ones with a toast
that changes nothing; indexes in button data are never read as "from the end"."""

from __future__ import annotations

import asyncio
import secrets

import pytest

from fakebot import FakeMessage, FakeUser
from fakebot.messages import CallbackAnswer
from tests.support.harness import Party, bot_messages
from tests.support.play import lobby_post, open_and_start, state

HUGE = "9" * 18
OVER = "9" * 19


async def _press(table: Party, who: FakeUser, message: FakeMessage, data: str) -> CallbackAnswer:
    """A press with data of our choosing (a modified client can send any)."""
    future: asyncio.Future[CallbackAnswer] = asyncio.get_running_loop().create_future()
    table.server.world.callback_query(str(secrets.randbelow(10**18)), who, message, data, future)
    try:
        answer = await asyncio.wait_for(asyncio.shield(future), 5)
    except TimeoutError:
        answer = CallbackAnswer(answered=False)
    await table.bot.settle()
    return answer


async def _events(table: Party, game_id: int) -> int:
    return len(await table.bot.services.store.events(game_id))


def _composer_forgeries(g: int) -> list[str]:
    """Composer data no button carries; bob holds seat 1 of 0..3."""
    return [
        f"s:{g}:-1",  # seat -1 would be the last seat as a Python index
        f"s:{g}:1",  # his own seat: the composer never offers it
        f"s:{g}:4",
        f"s:{g}:²",
        f"s:{g}:2:-1",
        f"s:{g}:2:0:0:0:0",
        f"s:{g}:2:{HUGE}",
        f"ss:{g}",
        f"ss:{g}:1:-1:0:0:0",
        f"ss:{g}:1:3:0:0:-1",
        f"ss:{g}:1:3:0:0",
        f"ss:{g}:-1:3:0:0:0",
        f"ss:{g}:{OVER}:3:0:0:0",
        f"c:{g}:-1",
        f"c:{g}:0:0:0:0",
        f"cs:{g}:0:0",
        f"cs:{g}:0:0:-1",
        f"s:{g + 1000}",
        f"s:{HUGE}:2",
        f"s:{OVER}:2",
        "s:²:2",
        "s:-1:2",
        "s",
        "x:²",
    ]


async def test_forged_composer_presses_are_answered_and_change_nothing(table: Party) -> None:
    game_id = await open_and_start(table)
    await table.bot.say(table.bob, None, "/suggest")
    composer = table.bob.private_messages()[-1]
    screen = (composer.text, composer.buttons)
    before = await _events(table, game_id)
    for data in _composer_forgeries(game_id):
        answer = await _press(table, table.bob, composer, data)
        assert answer.answered, f"{data} was never answered"
        assert answer.text == "This button is out of date.", (data, answer.text)
        assert (composer.text, composer.buttons) == screen, data
    assert await _events(table, game_id) == before
    assert not (await state(table, game_id)).suggestions
    assert not [m for m in bot_messages(table.group) if m.text.startswith("Suggestion")]


async def test_a_real_composer_press_still_works_after_forgeries(table: Party) -> None:
    game_id = await open_and_start(table)
    await table.bot.say(table.bob, None, "/suggest")
    composer = table.bob.private_messages()[-1]
    await _press(table, table.bob, composer, f"ss:{game_id}:1:-1:0:0:0")
    answer = await _press(table, table.bob, composer, f"ss:{game_id}:1:3:0:0:0")
    assert answer.answered
    game = await state(table, game_id)
    assert [(s.suggester, s.target) for s in game.suggestions] == [(1, 3)]


@pytest.mark.parametrize(
    "data",
    [
        "a:{g}",
        "a:{g}:1",
        "a:{g}:²:rope",
        "a:{g}:-1:rope",
        "a:{g}:0:rope",
        "a:{g}:" + OVER + ":rope",
        "a:{g}:1:rope:extra",
        "n:{g}",
        "n:{g}:1:extra",
        "n:{g}:²",
        "a:" + OVER + ":1:rope",
        "n:²:1",
    ],
)
async def test_forged_answer_presses_are_answered(table: Party, data: str) -> None:
    game_id = await open_and_start(table)
    before = await _events(table, game_id)
    message = table.carol.private_messages()[-1]
    answer = await _press(table, table.carol, message, data.format(g=game_id))
    assert answer.answered and answer.text == "This button is out of date.", answer
    assert await _events(table, game_id) == before


async def test_forged_lobby_and_unknown_presses_are_answered(table: Party) -> None:
    for person in table.players:
        person.start_bot()
    await table.bot.say(table.alice, table.group, "/newgame")
    lobby = lobby_post(table)
    ref = await table.bot.services.store.game_for_chat(table.group.id, 0)
    assert ref is not None
    before = await _events(table, ref.id)
    for data in ("j:²", "j:-1", "j:abc", f"j:{OVER}", f"st:{ref.id + 1}", "zz:1", "j", ":"):
        answer = await _press(table, table.bob, lobby, data)
        assert answer.answered and answer.text == "This button is out of date.", (data, answer)
    # The host's own detective buttons, forged: no such level, no detective to take out.
    g = ref.id
    for data in (f"dt:{g}", f"dt:{g}:robot", f"dt:{g}:inspector:1", f"dt:{g}:-1"):
        answer = await _press(table, table.alice, lobby, data)
        assert answer.answered and answer.text == "This button is out of date.", (data, answer)
    answer = await _press(table, table.alice, lobby, f"dt:{g}:-")
    assert answer.text == "There is no computer detective in the lobby to take out."
    assert await _events(table, ref.id) == before
    assert [e.user for e in (await state(table, ref.id)).lobby] == [table.alice.id]


async def test_a_press_whose_handler_fails_still_gets_an_answer(
    table: Party, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = await open_and_start(table)
    await table.bot.say(table.bob, None, "/suggest")
    composer = table.bob.private_messages()[-1]

    async def broken(game: int) -> None:
        raise RuntimeError("the store is down")

    monkeypatch.setattr(table.bot.services.store, "load", broken)
    answer = await _press(table, table.bob, composer, f"s:{game_id}:2")
    assert (
        answer.answered
        and answer.text == "Something went wrong on my side. Please try again in a moment."
    )
