"""`whodunit run`: a clear message without a token; with one it serves a game."""

from __future__ import annotations

import asyncio
import subprocess
from pathlib import Path

import pytest

from fakebot import FakeTelegramClient
from tests.support.processes import bot_env, club_of_three, start_bot, stop_bot, whodunit_command

TOKEN = "123:ABC"


@pytest.mark.parametrize(("token", "problem"), [(None, "not set"), ("nonsense", "malformed")])
def test_a_missing_or_malformed_token_gets_a_one_line_explanation(
    tmp_path: Path, token: str | None, problem: str
) -> None:
    env = bot_env(token, "http://127.0.0.1:9/bot", f"sqlite:///{tmp_path}/x.db")
    result = subprocess.run(
        [*whodunit_command(), "run"],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and problem in lines[0] and "@BotFather" in lines[0]


@pytest.mark.slow
async def test_whodunit_run_serves_a_game(tmp_path: Path) -> None:
    fake = await FakeTelegramClient.launch(TOKEN)
    bot: asyncio.subprocess.Process | None = None
    try:
        env = bot_env(TOKEN, fake.base_url, f"sqlite:///{tmp_path}/bot.db")
        bot = await start_bot(env, tmp_path)
        await fake.wait_for(lambda: _polling(fake), timeout=30)
        alice, bob, carol, group = await club_of_three(fake)
        await alice.send(group, "/newgame")
        lobby = await _bot_message(fake, group, lambda m: bool(m.buttons))
        for person in (bob, carol):
            answer = await person.press(lobby, "Join")
            assert answer.answered
        await alice.press(lobby, "Start the game")
        for person in (alice, bob, carol):
            hand = await person.wait_private(lambda m: "Your cards" in m.text, timeout=15)
            assert "Your character" in hand.text
    except BaseException:
        print(await stop_bot(bot) if bot is not None else "the bot did not start")
        raise
    finally:
        await fake.aclose()
    output = await stop_bot(bot)
    assert bot.returncode == 0, output


async def _polling(fake: FakeTelegramClient) -> bool:
    return bool(await fake.calls("deleteWebhook"))


async def _bot_message(fake, group, predicate, timeout: float = 15.0):  # type: ignore[no-untyped-def]
    async def check():  # type: ignore[no-untyped-def]
        found = [m for m in await group.messages() if m.from_user_id == 1000 and predicate(m)]
        return found[0] if found else None

    return await fake.wait_for(check, timeout)


def test_db_upgrade_command(tmp_path: Path) -> None:
    env = bot_env(None, "http://127.0.0.1:9/bot", f"sqlite:///{tmp_path}/up.db")
    result = subprocess.run(
        [*whodunit_command(), "db", "upgrade"],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "up.db").exists()
