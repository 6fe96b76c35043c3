"""A backup of a running SQLite bot in the middle of a game, with writes going on, restored
into a fresh directory: the bot started there continues the game (a move is accepted, and
/status tells the game as it was)."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

import pytest

from fakebot import FakeTelegramClient, RemoteGroup, RemoteMessage, RemoteUser
from storage.service import Store
from tests.support.play import card_name, naming
from tests.support.processes import bot_env, club_of_three, start_bot, stop_bot, whodunit_command

TOKEN = "123:ABC"
ROOMY = {
    "WHODUNIT_FLOOD_GROUP_LIMIT": "10000",
    "WHODUNIT_FLOOD_GROUP_SUSTAINED_LIMIT": "10000",
    "WHODUNIT_GROUP_MESSAGES_PER_MINUTE": "10000",
}


async def _posts(group: RemoteGroup, text: str) -> list[RemoteMessage]:
    return [m for m in await group.messages() if m.from_user_id == 1000 and text in m.text]


async def _wait_post(fake: FakeTelegramClient, group: RemoteGroup, text: str) -> RemoteMessage:
    async def found() -> list[RemoteMessage]:
        return await _posts(group, text)

    posts: list[RemoteMessage] = await fake.wait_for(found, 20)
    return posts[-1]


async def _cli(env: dict[str, str], cwd: Path, *args: str) -> tuple[int, str]:
    process = await asyncio.create_subprocess_exec(
        *whodunit_command(),
        *args,
        env=env,
        cwd=cwd,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    output, _ = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode is not None
    return process.returncode, output.decode()


async def _chatter(person: RemoteUser, group: RemoteGroup, stop: asyncio.Event) -> int:
    """/status again and again: each one a handled update and an outbox row written."""
    sent = 0
    while not stop.is_set():
        await person.send(group, "/status")
        sent += 1
        await asyncio.sleep(0.05)
    return sent


@pytest.mark.slow
async def test_a_backup_of_a_running_bot_restored_elsewhere_continues_the_game(
    tmp_path: Path,
) -> None:
    fake = await FakeTelegramClient.launch(TOKEN)
    live, fresh = tmp_path / "live", tmp_path / "fresh"
    live.mkdir()
    fresh.mkdir()
    live_url, fresh_url = f"sqlite:///{live}/bot.db", f"sqlite:///{fresh}/bot.db"
    env = bot_env(TOKEN, fake.base_url, live_url, **ROOMY)
    first = await start_bot(env, live)
    second = None
    output = ""
    try:
        await fake.wait_for(lambda: _polling(fake), timeout=30)
        alice, bob, carol, group = await club_of_three(fake, bot_admin=True)
        await alice.send(group, "/newgame")
        lobby = await _wait_post(fake, group, "new game of Cluedo")
        for person in (bob, carol):
            await person.press(lobby, "Join")
        await alice.press(lobby, "Start the game")
        await _wait_post(fake, group, "Day 1 begins")
        store = await Store.open(live_url, migrate=False)
        try:
            ref = await store.game_for_chat(group.id, 0)
            assert ref is not None
            game = await store.load(ref.id)
        finally:
            await store.close()
        seat = game.player_of(carol.id)
        assert seat is not None
        named = "; ".join(card_name(c) for c in naming(game, seat.hand[0]))
        await bob.send(group, "/suggest @carol " + named)
        await _wait_post(fake, group, "Suggestion 1 for @carol")
        prompt = await carol.wait_private(lambda m: bool(m.buttons), timeout=20)

        stop = asyncio.Event()
        chatter = asyncio.create_task(_chatter(alice, group, stop))
        await _wait_post(fake, group, "Day 1")  # a /status answer: the writes are going on
        file = tmp_path / "backups" / "whodunit.backup"
        code, said = await _cli(env, live, "db", "backup", str(file))
        stop.set()
        sent = await chatter
        assert code == 0, said
        assert sent >= 2
        output += await stop_bot(first)

        code, said = await _cli(
            bot_env(TOKEN, fake.base_url, fresh_url), fresh, "db", "restore", str(file)
        )
        assert code == 0 and "restored" in said, said
        code, said = await _cli(
            bot_env(TOKEN, fake.base_url, fresh_url), fresh, "db", "restore", str(file)
        )
        assert code == 2 and "--force" in said, "a second restore would overwrite the games"

        second = await start_bot(bot_env(TOKEN, fake.base_url, fresh_url, **ROOMY), fresh)
        shown_card = next(b for row in prompt.buttons for b, _ in row if b != "No refutation")
        await carol.press(prompt, shown_card, timeout=20)
        shown = await bob.wait_private(lambda m: "shows you" in m.text, timeout=30)
        assert shown_card in shown.text
        # The group's rows owed at the backup go out first (per-chat order), then this one.
        await _wait_post(fake, group, "'s suggestion 1.")
        before = len(await _posts(group, "suggestions left"))
        await alice.send(group, "/status")

        async def fresh_status() -> list[RemoteMessage]:
            answers = await _posts(group, "suggestions left")
            return answers if len(answers) > before else []

        status = (await fake.wait_for(fresh_status, 20))[-1].text
        lines = {line.split(":")[0]: line for line in status.splitlines() if "•" in line}
        bob_line = next(v for k, v in lines.items() if "Bob" in k or "bob" in k)
        carol_line = next(v for k, v in lines.items() if "Carol" in k or "carol" in k)
        assert "2 suggestions left" in bob_line, status  # the suggestion made before the backup
        assert "answers owed: 0" in carol_line, status  # and her answer after the restore
    finally:
        with contextlib.suppress(Exception):
            output += await stop_bot(first)
        if second is not None:
            output += await stop_bot(second)
        await fake.aclose()
    assert second is not None and second.returncode == 0, output


async def _polling(fake: FakeTelegramClient) -> bool:
    return bool(await fake.calls("deleteWebhook"))
