"""A bot running alone keeps people, chat defaults and open games with no time limit: a game
that goes slowly (an update every few minutes) re-reads none of them. Once another worker's
heartbeat is seen, the copies are dropped and what that worker wrote is used at once."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine

from fakebot import FakeUser
from storage.service import Store
from tests.support.harness import Party, bot_messages
from tests.support.play import card_name, naming, open_and_start, state

# Reads of what the caches hold: people, chat defaults and names, a chat's open game.
CACHED = re.compile(
    r"FROM (people|chat_settings|chat_names)\b|FROM games WHERE games\.chat_id", re.I
)


@contextmanager
def cached_reads() -> Iterator[list[str]]:
    """The statements run meanwhile that read what a cache could have answered."""
    seen: list[str] = []

    def note(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        flat = " ".join(statement.split())
        if CACHED.search(flat):
            seen.append(flat)

    event.listen(Engine, "before_cursor_execute", note)
    try:
        yield seen
    finally:
        event.remove(Engine, "before_cursor_execute", note)


async def _suggest_and_answer(
    table: Party, game_id: int, who: FakeUser, target: FakeUser, number: int
) -> None:
    game = await state(table, game_id)
    player = game.player_of(target.id)
    assert player is not None
    held = player.hand[0]
    cards = ";".join(card_name(c) for c in naming(game, held))
    await table.bot.say(who, table.group, f"/suggest @{target.username} {cards}")
    prompt = await target.wait_private(lambda m: f"Suggestion {number}" in m.text and m.buttons)
    await table.bot.press(target, prompt, card_name(held))
    shown = [m for m in who.private_messages() if "shows you" in m.text]
    assert card_name(held) in shown[-1].text


async def test_a_slow_game_reads_no_person_chat_or_game_again(table: Party) -> None:
    store = table.bot.services.store
    assert store.freshness.alone, "a bot with no other worker seen trusts its copies"
    game_id = await open_and_start(table)
    await _suggest_and_answer(table, game_id, table.bob, table.carol, 1)

    store.freshness.clock = lambda: time.monotonic() + 3600  # an hour later
    with cached_reads() as reads:
        await _suggest_and_answer(table, game_id, table.carol, table.dave, 1)
    assert reads == []
    assert "refuted" in bot_messages(table.group)[-1].text


async def test_after_another_worker_is_seen_its_changes_are_used(table: Party) -> None:
    store = table.bot.services.store
    await table.bot.say(table.alice, table.group, "/help")
    english = bot_messages(table.group)[-1].text

    other = await Store.open(table.bot.config.database_url, migrate=False)
    try:
        await other.chats.set_language(table.group.id, "ru")  # another worker's /language
        await other.workers.beat("other", table.bot.clock.now() + timedelta(seconds=1))
    finally:
        await other.close()
    await table.bot.scheduler.sweep()
    assert not store.freshness.alone

    await table.bot.say(table.alice, table.group, "/help")
    russian = bot_messages(table.group)[-1].text
    assert russian != english and re.search("[а-я]", russian), russian

    with cached_reads() as reads:  # copies are timed now: kept a while, then read again
        await table.bot.say(table.alice, table.group, "/help")
        assert reads == []
        store.freshness.clock = lambda: time.monotonic() + 3600
        await table.bot.say(table.alice, table.group, "/help")
        assert any("chat_settings" in r for r in reads)
