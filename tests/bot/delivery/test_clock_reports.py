"""A message that starts a clock carries it (`Payload.clock`), and once Telegram takes it
the sender reports the moment to the engine (bot.delivery.clocks): the clock then runs its
whole span from there. A report that fails is logged; the delivery stands."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

import pytest
from sqlalchemy import select
from sqlalchemy.engine import Connection

from bot.payload import Payload
from bot.services import Services
from engine.commands import Command
from storage.messages_owed import OutboxItem
from storage.models import OutboxRecord, OutboxStatus
from storage.service import Outcome
from tests.support.harness import Party
from tests.support.play import lobby_post, state


def test_a_payload_carries_its_clock_in_its_row() -> None:
    row = Payload("liars.read", {}, game=3, clock=("liar_window", 7)).to_row()
    assert row["clock"] == ["liar_window", 7]
    assert Payload.from_row(row).clock == ("liar_window", 7)
    assert "clock" not in Payload("liars.read", {}).to_row()
    assert Payload.from_row(Payload("liars.read", {}).to_row()).clock is None


def _sent(conn: Connection, game_id: int, ending: str) -> tuple[datetime, str]:
    """When the game's first row whose key ends so was sent, and its payload."""
    o = OutboxRecord
    query = (
        select(o.sent_at, o.payload)
        .where(o.game_id == game_id, o.key.like(f"%{ending}"), o.status == OutboxStatus.SENT)
        .order_by(o.id)
    )
    found = conn.execute(query).first()
    assert found is not None and found.sent_at is not None, f"no {ending} sent"
    return found.sent_at, found.payload


async def test_the_turn_runs_its_time_from_the_prompts_delivery(table: Party) -> None:
    """The private chats' sends fail twice as the game starts (502, retried after 2 s and
    4 s): the first turn's prompt (in its player's private chat) arrives six seconds late
    or more, and the turn's time runs from it."""
    people = [table.alice, table.bob, table.carol]
    for person in people:
        person.start_bot()
    await table.bot.settle()
    await table.bot.say(people[0], table.group, "/newgame classic")
    for person in people[1:]:
        await table.bot.press(person, lobby_post(table), lobby_post(table).buttons[0][0][0])
    for person in people:
        table.server.fail_next("sendMessage", 502, chat_id=person.id, times=2)
    began = table.bot.services.now()
    await table.bot.press(people[0], lobby_post(table), lobby_post(table).buttons[1][0][0])
    await table.bot.advance(timedelta(seconds=2))  # the first retry fails too
    await table.bot.advance(timedelta(seconds=4))
    await table.bot.advance(timedelta(seconds=2))  # the hand, then the prompt (1 a second)
    ref = await table.bot.services.store.game_for_chat(table.group.id, 0)
    assert ref is not None
    sent_at, payload = await table.bot.services.store.db.run_read(_sent, ref.id, ":tp1:u%")
    assert '"clock":["turn",1]' in payload and sent_at - began >= timedelta(seconds=6)
    game = await state(table, ref.id)
    assert game.table is not None and game.table.clocks_seen == (("turn", 1),)
    assert game.table.due == sent_at + game.settings.turn_time


async def test_a_failed_report_is_logged_and_the_message_stays_delivered(
    table: Party, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    async def broken(self: Services, game_id: int, command: Command) -> Outcome:
        raise RuntimeError("the database is away")

    monkeypatch.setattr(Services, "report", broken)
    services = table.bot.services
    payload = Payload("error.anonymous_admin", {}, game=1, clock=("turn", 1)).to_row()
    item = OutboxItem(key="clocked", chat_id=table.group.id, payload=payload)
    with caplog.at_level(logging.ERROR, logger="bot.delivery.clocks"):
        await services.store.outbox.enqueue([item], services.now())
        services.outbox_ready.set()
        await table.bot.settle()
    assert await services.store.outbox.counts() == {OutboxStatus.SENT: 1}
    assert any("not reported" in r.getMessage() for r in caplog.records)
