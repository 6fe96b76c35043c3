"""Webhook mode in this process: the fake posts updates with the secret; a game plays; a
wrong secret is refused; a repeated update changes nothing; a failure is answered 500
and the update comes again."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select
from sqlalchemy.engine import Connection
from telegram import Update

from engine.cards import CATEGORY_ORDER
from engine.state import Phase
from fakebot import FakeTelegram
from storage.models import EventRecord
from tests.support.harness import TOKEN, Clock, Party, bot_messages, database_url, end_post
from tests.support.play import (
    card_name,
    compose_accusation,
    compose_suggestion,
    open_and_start,
    state,
)
from tests.support.webhook import PATH, SECRET, WebhookHarness


@pytest.fixture
async def server() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram(TOKEN, allow_http_webhooks=True, webhook_retry_seconds=0.05) as fake:
        yield fake


@pytest.fixture
async def table(server: FakeTelegram, tmp_path: Path) -> AsyncIterator[Party]:
    people = [server.add_user(n, username=n.lower()) for n in ("Alice", "Bob", "Carol", "Dave")]
    group = server.add_group("Cluedo club", admins=people[:1], members=people[1:], bot_admin=True)
    harness = WebhookHarness(server, database_url(tmp_path), Clock())
    await harness.start()
    try:
        yield Party(server, harness, group, *people)
    finally:
        await harness.stop()


def _hook(table: Party) -> WebhookHarness:
    assert isinstance(table.bot, WebhookHarness)
    return table.bot


async def _post(table: Party, body: Any, headers: dict[str, str]) -> httpx.Response:
    async with httpx.AsyncClient() as client:
        if isinstance(body, bytes):
            return await client.post(f"{_hook(table).url}{PATH}", content=body, headers=headers)
        return await client.post(f"{_hook(table).url}{PATH}", json=body, headers=headers)


def _event_count(conn: Connection) -> int:
    return int(conn.execute(select(func.count()).select_from(EventRecord)).scalar() or 0)


async def _events(table: Party) -> int:
    return await table.bot.services.store.db.run_read(_event_count)


def _sends(server: FakeTelegram) -> int:
    return sum(1 for c in server.calls if c.ok and c.method.startswith(("send", "edit")))


async def test_a_whole_game_plays_through_the_webhook(table: Party) -> None:
    info = await table.bot.app.bot.get_webhook_info()
    assert info.url.endswith(PATH) and info.allowed_updates
    game_id = await open_and_start(table)
    game = await state(table, game_id)
    assert game.phase is Phase.RUNNING and game.envelope is not None
    bob, carol = game.player_of(table.bob.id), game.player_of(table.carol.id)
    assert bob is not None and carol is not None
    held = carol.hand[0]
    cards = [
        held if game.pack.category_of(held) is category else _free(game, carol.hand, category)
        for category in (c for c in (game.pack.category_of(x) for x in game.envelope))
    ]
    await compose_suggestion(table, table.bob, table.carol, (cards[0], cards[1], cards[2]))
    prompt = await table.carol.wait_private(lambda m: "Suggestion 1" in m.text and m.buttons)
    await table.bot.press(table.carol, prompt, prompt.buttons[0][0][0])
    assert any("shows you" in m.text for m in table.bob.private_messages())
    await compose_accusation(table, table.alice, game.envelope)
    await table.bot.advance(timedelta(hours=24, seconds=1))
    game = await state(table, game_id)
    alice = game.player_of(table.alice.id)
    assert game.phase is Phase.ENDED and alice is not None and game.winner == alice.seat
    assert "@alice wins" in end_post(table.group).text
    deliveries = table.server.webhook.deliveries
    assert len(deliveries) > 20 and all(d.ok and d.secret == SECRET for d in deliveries)
    assert not table.server.calls_to("getUpdates")


def _free(game: Any, hand: Any, category: Any) -> str:
    return str(next(c for c in game.in_play(category) if c not in hand))


@pytest.mark.parametrize("headers", [{}, {"X-Telegram-Bot-Api-Secret-Token": "wrong"}])
async def test_a_request_without_the_right_secret_is_refused_and_changes_nothing(
    table: Party, headers: dict[str, str]
) -> None:
    await table.bot.settle()
    sends, events = _sends(table.server), await _events(table)
    update = _newgame_update(table)
    answer = await _post(table, update, headers)
    assert answer.status_code == 403
    await asyncio.sleep(0.3)
    await table.bot.settle()
    assert await table.bot.services.store.game_for_chat(table.group.id, 0) is None
    assert (_sends(table.server), await _events(table)) == (sends, events)
    # The same update with the secret is handled: the refusal was the secret alone.
    assert (await _post(table, update, {"X-Telegram-Bot-Api-Secret-Token": SECRET})).is_success
    await table.bot.settle()
    assert await table.bot.services.store.game_for_chat(table.group.id, 0) is not None


@pytest.mark.parametrize("body", [b"{not json", b"[1, 2]", b'{"message": {"text": "x"}}'])
async def test_a_body_that_is_not_an_update_gets_400(table: Party, body: bytes) -> None:
    secret = {"X-Telegram-Bot-Api-Secret-Token": SECRET, "Content-Type": "application/json"}
    assert (await _post(table, body, secret)).status_code == 400


def _newgame_update(table: Party) -> dict[str, Any]:
    """A /newgame by Alice in the group, as Telegram would post it (never queued)."""
    message = table.group.add_message(table.alice, text="/newgame", html="/newgame")
    message.entities = [{"type": "bot_command", "offset": 0, "length": 8}]
    return {"update_id": 900_001, "message": message.to_api()}


async def test_the_same_update_posted_twice_is_handled_once(table: Party) -> None:
    game_id = await open_and_start(table)
    game = await state(table, game_id)
    cards = [card_name(game.in_play(category)[0]) for category in CATEGORY_ORDER]
    await table.bot.say(table.carol, table.group, f"/suggest @dave {'; '.join(cards)}")
    assert any("Suggestion 1 for @dave" in m.text for m in bot_messages(table.group))
    sends, events = _sends(table.server), await _events(table)
    suggestion = next(
        d.update
        for d in table.server.webhook.deliveries
        if "/suggest @dave" in d.update.get("message", {}).get("text", "")
    )
    lobby_start = next(
        d.update for d in table.server.webhook.deliveries if "callback_query" in d.update
    )
    secret = {"X-Telegram-Bot-Api-Secret-Token": SECRET}
    again = [suggestion, suggestion, lobby_start]
    answers = await asyncio.gather(*(_post(table, u, secret) for u in again))
    assert [a.status_code for a in answers] == [200, 200, 200]
    await table.bot.settle()
    assert (_sends(table.server), await _events(table)) == (sends, events)
    assert not any("Suggestion 2" in m.text for m in bot_messages(table.group))


async def test_a_failed_handling_is_answered_500_and_comes_again(table: Party) -> None:
    failures = {"left": 1}

    async def fail_once(update: Update, context: object) -> None:
        if update.message is not None and update.message.text == "/newgame" and failures["left"]:
            failures["left"] -= 1
            raise RuntimeError("the database went away for a moment")

    from telegram.ext import TypeHandler

    table.bot.app.add_handler(TypeHandler(Update, fail_once), group=-50)
    await table.bot.say(table.alice, table.group, "/newgame")
    last_two = table.server.webhook.deliveries[-2:]
    assert [d.status for d in last_two] == [500, 200]
    assert last_two[0].update_id == last_two[1].update_id
    assert sum(1 for m in bot_messages(table.group) if m.buttons) == 1
    info = await table.bot.app.bot.get_webhook_info()
    assert info.last_error_message and "500" in info.last_error_message
