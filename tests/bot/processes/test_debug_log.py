"""A whole game played against the real `whodunit run` at DEBUG: everything the process
printed holds neither the bot token nor the name of any card of a hand or the envelope."""

from __future__ import annotations

import asyncio
import re
import signal
from pathlib import Path

import pytest

from engine.cards import CLASSIC
from fakebot import FakeTelegramClient, RemoteGroup, RemoteMessage, RemoteUser
from storage.service import Store
from tests.support.play import card_name, naming
from tests.support.processes import bot_env, club_of_three, whodunit_command

TOKEN = "7301945862:AAHwhodunitDebugLogSecret_x9Qz-K3vTb"
SECRET = TOKEN.partition(":")[2]
NAMES = {card_name(card) for card in CLASSIC.all_cards}


async def _post(fake: FakeTelegramClient, group: RemoteGroup, text: str, timeout: float = 15):  # type: ignore[no-untyped-def]
    async def found() -> list[RemoteMessage]:
        return [m for m in await group.messages() if m.from_user_id == 1000 and text in m.text]

    return await fake.wait_for(found, timeout)


def _hand(message: RemoteMessage) -> set[str]:
    """The card names of a "Your cards: A, B, C" message."""
    line = next(x for x in message.text.split("\n") if "Your cards" in x)  # after the label
    cards = set(line.partition(": ")[2].split(", "))
    assert cards <= NAMES, line
    return cards


async def _accuse(person: RemoteUser, cards: list[str]) -> None:
    """The private composer: /accuse, a suspect, a weapon, a place, then confirm."""
    sent = await person.send_private("/accuse")
    composer = await person.wait_private(lambda m: bool(m.buttons), after=sent)
    for name in [*cards, "Yes, I accuse"]:
        await person.press(composer, name)


@pytest.mark.slow
async def test_a_game_logged_at_debug_shows_no_token_and_no_card_of_a_hand(
    tmp_path: Path,
) -> None:
    fake = await FakeTelegramClient.launch(TOKEN)
    url = f"sqlite:///{tmp_path}/bot.db"
    env = bot_env(TOKEN, fake.base_url, url, WHODUNIT_LOG_LEVEL="DEBUG", WHODUNIT_SWEEP_SECONDS="1")
    log_file = tmp_path / "whodunit.log"
    with log_file.open("wb") as output:
        bot = await asyncio.create_subprocess_exec(
            *whodunit_command(), "run", env=env, cwd=tmp_path, stdout=output, stderr=output
        )
    try:
        await fake.wait_for(lambda: fake.calls("deleteWebhook"), timeout=30)
        alice, bob, carol, group = await club_of_three(fake, bot_admin=True)
        await alice.send(group, "/settings accusation_window 1m")
        await _post(fake, group, "Saved")
        await alice.send(group, "/newgame")
        (lobby,) = await _post(fake, group, "new game of Cluedo")
        for person in (bob, carol):
            await person.press(lobby, "Join")
        await alice.press(lobby, "Start the game")
        hands = {
            person.first_name: _hand(
                await person.wait_private(lambda m: "Your cards" in m.text, timeout=15)
            )
            for person in (alice, bob, carol)
        }

        store = await Store.open(url, migrate=False)
        try:
            ref = await store.game_for_chat(group.id, 0)
            assert ref is not None
            game = await store.load(ref.id)
        finally:
            await store.close()
        assert game.envelope is not None
        envelope = [card_name(c) for c in game.envelope]
        seat = game.player_of(carol.id)
        assert seat is not None and {card_name(c) for c in seat.hand} == hands["Carol"]

        named = "; ".join(card_name(c) for c in naming(game, seat.hand[0]))
        await bob.send(group, "/suggest @carol " + named)
        prompt = await carol.wait_private(lambda m: "Suggestion 1" in m.text and bool(m.buttons))
        await carol.press(prompt, prompt.buttons[0][0][0])
        await bob.wait_private(lambda m: "shows you" in m.text)
        await _accuse(alice, envelope)
        await _post(fake, group, "@alice wins", timeout=120)
    finally:
        if bot.returncode is None:
            bot.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(bot.wait(), 20)
        except TimeoutError:
            bot.kill()
            await bot.wait()
        await fake.aclose()
    log = log_file.read_text(errors="replace")
    secret_cards = set(envelope).union(*hands.values())
    print(f"log: {len(log.splitlines())} lines; secret cards: {sorted(secret_cards)}")
    assert "Calling Bot API endpoint `sendMessage` with parameters" in log, "DEBUG was on"
    assert "Set Bot API URL: " in log and "/bot[hidden]" in log, "the URL, without the token"
    assert TOKEN not in log and SECRET not in log
    leaked = {n for n in secret_cards if re.search(rf"(?<!\w){re.escape(n)}(?!\w)", log)}
    assert leaked == set(), "a card of a hand or of the envelope is in the log"
    assert bot.returncode == 0, log[-3000:]
