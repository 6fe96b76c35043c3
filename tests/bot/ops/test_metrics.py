"""The Prometheus metrics move with what the bot does: a move, a refusal, a flood, a 429,
and the database gauges follow the games, the outbox and the deadlines."""

from __future__ import annotations

import asyncio
import secrets
from datetime import timedelta
from pathlib import Path

from prometheus_client import generate_latest
from prometheus_client.parser import text_string_to_metric_families

from bot.metrics import DatabaseGauges
from fakebot import CallbackAnswer, FakeTelegram
from tests.support.harness import BotHarness, Clock, Party, bot_messages, database_url
from tests.support.play import card_name, naming, open_and_start, state

Sample = tuple[str, frozenset[tuple[str, str]]]


def scrape() -> dict[Sample, float]:
    """Every sample of the default registry, as Prometheus would read it."""
    text = generate_latest().decode()
    return {
        (s.name, frozenset(s.labels.items())): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def value(samples: dict[Sample, float], name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


def moved(before: dict[Sample, float], after: dict[Sample, float], name: str, **labels: str):  # type: ignore[no-untyped-def]
    return value(after, name, **labels) - value(before, name, **labels)


async def test_a_played_move_and_a_rule_refusal_are_counted(table: Party) -> None:
    game_id = await open_and_start(table)
    game = await state(table, game_id)
    carol = game.player_of(table.carol.id)
    assert carol is not None
    cards = "; ".join(card_name(c) for c in naming(game, carol.hand[0]))
    before = scrape()
    await table.bot.say(table.bob, table.group, f"/suggest @carol {cards}")
    after = scrape()
    ok = {"kind": "message", "outcome": "ok"}
    assert moved(before, after, "whodunit_updates_handled_total", **ok) == 1
    assert moved(before, after, "whodunit_command_seconds_count", command="/suggest") == 1
    assert value(after, "whodunit_command_seconds_sum", command="/suggest") > 0

    await table.bot.say(table.bob, table.group, f"/suggest @bob {cards}")  # to himself
    refused = scrape()
    assert moved(after, refused, "whodunit_updates_refused_total", reason="rule") == 1
    handled = {"kind": "message", "outcome": "refused"}
    assert moved(after, refused, "whodunit_updates_handled_total", **handled) == 1
    assert moved(after, refused, "whodunit_command_seconds_count", command="/suggest") == 1


async def test_a_press_on_someone_elses_button_is_a_forged_button(table: Party) -> None:
    await open_and_start(table)
    await table.bot.say(table.bob, None, "/suggest")
    composer = table.bob.private_messages()[-1]
    data = composer.buttons[0][0][1]
    assert data is not None
    before = scrape()
    future: asyncio.Future[CallbackAnswer] = asyncio.get_running_loop().create_future()
    query_id = str(secrets.randbelow(10**18))
    table.server.world.callback_query(query_id, table.alice, composer, data, future)
    await asyncio.wait_for(future, 5)
    await table.bot.settle()
    after = scrape()
    assert moved(before, after, "whodunit_updates_refused_total", reason="forged_button") == 1
    answered = {"kind": "callback_query", "outcome": "refused"}
    assert moved(before, after, "whodunit_updates_handled_total", **answered) == 1


async def test_a_429_from_the_fake_is_counted(table: Party) -> None:
    before = scrape()
    table.server.fail_next("sendMessage", 429, retry_after=1)
    await table.bot.say(table.alice, table.group, "/help")
    after = scrape()
    assert moved(before, after, "whodunit_telegram_429_total", source="sender") == 1


async def test_a_flood_is_counted_as_refused(server: FakeTelegram, tmp_path: Path) -> None:
    alice = server.add_user("Alice", username="alice")
    group = server.add_group("Club", admins=[alice], bot_admin=True)
    harness = BotHarness(server, database_url(tmp_path), Clock(), settings={"flood_group_limit": 2})
    await harness.start()
    try:
        before = scrape()
        for _ in range(4):
            await harness.say(alice, group, "/help")
        after = scrape()
    finally:
        await harness.stop()
    assert moved(before, after, "whodunit_updates_refused_total", reason="flood") == 2
    assert moved(before, after, "whodunit_command_seconds_count", command="/help") == 4


async def test_the_database_gauges_follow_games_outbox_and_deadlines(table: Party) -> None:
    services = table.bot.services
    gauges = DatabaseGauges(services.store.db, services.now)
    await gauges.refresh()
    empty = scrape()
    assert value(empty, "whodunit_games", phase="running") == 0
    assert value(empty, "whodunit_deadlines_due") == 0

    await open_and_start(table)
    await gauges.refresh()
    running = scrape()
    assert value(running, "whodunit_games", phase="running") == 1
    assert value(running, "whodunit_outbox_backlog", status="pending") == 0
    assert value(running, "whodunit_outbox_oldest_unsent_age_seconds") == 0

    table.server.fail_next("sendMessage", 500, times=1000)  # nothing gets through now
    await table.bot.say(table.alice, table.group, "/status")
    table.bot.clock.advance(timedelta(days=2))  # past the day's end, no sweep yet
    await gauges.refresh()
    stuck = scrape()
    assert value(stuck, "whodunit_outbox_backlog", status="pending") >= 1
    assert value(stuck, "whodunit_outbox_oldest_unsent_age_seconds") >= 2 * 86400 - 60
    assert value(stuck, "whodunit_deadlines_due") >= 1
    assert value(stuck, "whodunit_deadlines_late") >= 1
    assert value(stuck, "whodunit_database_gauges_refreshed_timestamp_seconds") > 0
    assert bot_messages(table.group)  # the game's earlier posts did go out


async def test_the_database_figures_on_postgresql(pg_server: str) -> None:
    from storage.service import Store
    from tests.support.postgres import create_pg_database, drop_pg_database
    from tests.support.stored_games import NOW, new_game

    url = await asyncio.to_thread(create_pg_database)
    try:
        store = await Store.open(url)
        try:
            await new_game(store)
            gauges = DatabaseGauges(store.db, lambda: NOW + timedelta(days=3))
            figures = await gauges.refresh()
        finally:
            await store.close()
    finally:
        await asyncio.to_thread(drop_pg_database, url)
    assert figures.games == {"running": 1}
    assert figures.backlog["pending"] > 0 and figures.oldest_unsent_age == 3 * 86400
    assert figures.deadlines_due == figures.deadlines_late > 0
    assert value(scrape(), "whodunit_games", phase="running") == 1
