"""The one sender: 429s pause one chat, errors back off, lost answers are not resent blindly."""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.exc import TimeoutError as PoolTimeout

from bot.delivery.links import linked
from bot.delivery.sender import DOUBT_BACKOFF, Sender
from bot.payload import Payload
from fakebot import FakeGroup, FakeTelegram, FakeUser
from locales import t
from storage.messages_owed import OutboxItem
from storage.models import OutboxStatus
from storage.outbox import OutboxRow
from tests.support.harness import BotHarness, Party, bot_messages, database_url
from tests.support.play import lobby_post


def _sends(table: Party, chat_id: int) -> list[int]:
    """HTTP statuses of the bot's sendMessage calls to one chat, in order."""
    calls = table.server.calls_to("sendMessage")
    return [c.status for c in calls if str(c.params.get("chat_id")) == str(chat_id)]


def _rules_posts(group: FakeGroup) -> int:
    return sum("The rules" in m.text for m in bot_messages(group))


def _sender(table: Party) -> Sender:
    found: Sender = table.bot.app.bot_data["sender"]
    return found


async def test_a_429_is_waited_out_and_the_message_delivered_once(table: Party) -> None:
    table.server.fail_next("sendMessage", 429, retry_after=3, times=1)
    await table.bot.say(table.alice, table.group, "/rules")
    assert _rules_posts(table.group) == 0
    await table.bot.advance(timedelta(seconds=2))
    assert _rules_posts(table.group) == 0, "not before retry_after"
    await table.bot.advance(timedelta(seconds=1))
    assert _sends(table, table.group.id) == [429, 200]
    assert _rules_posts(table.group) == 1
    assert (await table.bot.services.store.outbox.counts()) == {"sent": 1}


async def test_a_429_for_one_chat_pauses_only_that_chat(table: Party) -> None:
    other = table.server.add_group("Other club", admins=[table.bob], members=[table.carol])
    table.bob.start_bot()
    await table.bot.settle()
    table.server.fail_next("sendMessage", 429, retry_after=30, chat_id=table.group.id)
    await table.bot.say(table.alice, table.group, "/rules")
    await table.bot.say(table.alice, table.group, "/help")
    for _ in range(3):  # the other group and a private chat keep flowing meanwhile
        await table.bot.say(table.bob, other, "/rules")
    await table.bot.say(table.bob, None, "/rules")
    assert _rules_posts(other) == 3
    assert any("The rules" in m.text for m in table.bob.private_messages())
    assert _rules_posts(table.group) == 0, "the paused chat waits out retry_after"
    await table.bot.advance(timedelta(seconds=29))
    assert _rules_posts(table.group) == 0
    await table.bot.advance(timedelta(seconds=1))
    posts = bot_messages(table.group)
    assert _rules_posts(table.group) == 1
    assert "The rules" in posts[-2].text, "the /help answer still comes after the /rules one"
    assert _sends(table, table.group.id) == [429, 200, 200]


async def test_server_errors_are_retried_with_back_off(table: Party) -> None:
    table.server.fail_next("sendMessage", 502, times=2)
    await table.bot.say(table.alice, table.group, "/rules")
    assert _rules_posts(table.group) == 0
    counts = await table.bot.services.store.outbox.counts()
    assert counts.get(OutboxStatus.PENDING) == 1, "kept for a later try, not dropped"
    await table.bot.advance(timedelta(seconds=3))  # the first back-off (2 s)
    await table.bot.advance(timedelta(seconds=5))  # the second (4 s)
    assert _rules_posts(table.group) == 1
    assert (await table.bot.services.store.outbox.counts()) == {"sent": 1}


async def test_a_slow_answer_within_the_timeout_is_sent_once(table: Party) -> None:
    _sender(table).send_timeout = 3.0
    table.server.delay_next("sendMessage", 1.5, chat_id=table.group.id)
    await table.bot.say(table.alice, table.group, "/rules")
    await table.bot.advance(timedelta(minutes=10))
    assert _rules_posts(table.group) == 1
    assert _sends(table, table.group.id) == [200]


async def test_a_lost_answer_is_resent_once_after_a_long_back_off(table: Party) -> None:
    """Telegram delivered the post but its answer never came (twice): two copies at most."""
    _sender(table).send_timeout = 0.3
    table.server.delay_next("sendMessage", 1.0, times=2, chat_id=table.group.id)
    await table.bot.say(table.alice, table.group, "/rules")
    assert _rules_posts(table.group) == 1
    await table.bot.advance(timedelta(seconds=DOUBT_BACKOFF - 1))
    assert _rules_posts(table.group) == 1, "not resent at once nor after a short back-off"
    await table.bot.advance(timedelta(seconds=1))
    assert _rules_posts(table.group) == 2, "resent once: a lost post is worse than a double"
    await table.bot.advance(timedelta(hours=1))
    assert _rules_posts(table.group) == 2, "a second lost answer: taken as delivered"
    assert (await table.bot.services.store.outbox.counts()) == {"sent": 1}


async def test_a_split_message_resends_only_the_part_whose_answer_was_lost(table: Party) -> None:
    _sender(table).send_timeout = 0.3
    lines = "\n".join(f"line {n:04} " + "x" * 40 for n in range(200))  # about 10,000 chars
    table.server.delay_next("sendMessage", 1.0, skip=1, chat_id=table.group.id)
    await table.bot.services.tell(table.group.id, "settings.line", {"name": "n", "value": lines})
    await table.bot.settle()
    texts = [m.text for m in bot_messages(table.group)]
    assert len(texts) == 2, "the first part, and the second whose answer was lost"
    await table.bot.advance(timedelta(seconds=DOUBT_BACKOFF))
    texts = [m.text for m in bot_messages(table.group)]
    assert len(texts) == 4 and texts[1] == texts[2], "only the doubtful part again, then the last"
    assert texts[0] != texts[1] and "line 0199" in texts[3]
    assert sum("line 0000" in text for text in texts) == 1


async def test_quick_join_and_leave_presses_make_a_couple_of_lobby_edits(table: Party) -> None:
    for person in table.players:
        person.start_bot()
    await table.bot.say(table.alice, table.group, "/newgame")
    lobby = lobby_post(table)
    table.server.delay_next("editMessageText", 1.0, chat_id=table.group.id)  # Telegram is slow
    presses = [
        (table.bob, "Join"),
        (table.bob, "Leave"),
        (table.carol, "Join"),
        (table.carol, "Leave"),
        (table.dave, "Join"),
        (table.bob, "Join"),
        (table.carol, "Join"),
        (table.dave, "Leave"),
        (table.dave, "Join"),
        (table.carol, "Leave"),
    ]
    for person, button in presses:  # each press is answered before the next, no waiting
        await person.press(lobby, button)
    await table.bot.settle()
    edits = [
        c
        for c in table.server.calls_to("editMessageText")
        if c.ok and c.params.get("message_id") == lobby.message_id
    ]
    print(f"\n10 presses, {len(edits)} lobby edits")
    assert 1 <= len(edits) <= 3
    shown = lobby_post(table).text
    assert "Players (3): @alice, @bob, @dave" in shown


async def test_the_sender_prunes_old_sent_messages(table: Party) -> None:
    await table.bot.say(table.alice, table.group, "/rules")
    assert (await table.bot.services.store.outbox.counts()) == {"sent": 1}
    await table.bot.advance(timedelta(days=8))  # past the 7 days sent rows are kept
    store = table.bot.services.store
    for _ in range(50):  # the sender's loop prunes within a second or so
        if not await store.outbox.counts():
            break
        await asyncio.sleep(0.1)
    assert (await store.outbox.counts()) == {}, "the reply to /rules (no game) is deleted"
    assert _rules_posts(table.group) == 1


async def test_a_row_enqueued_right_after_an_empty_claim_is_sent_without_a_time_out(
    table: Party, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The wake-up is lossless: a row written (and the sender woken) between its empty claim
    and its nap is claimed at once, not after the idle time-out (made 30 s here). The row is
    written as another worker would (no hand-over to this sender: only the wake-up)."""
    await table.bot.settle()
    services, sender = table.bot.services, _sender(table)
    outbox = services.store.outbox
    claim = outbox.claim
    claims: list[int] = []
    armed = True
    enqueued_at = 0.0

    async def claim_then_enqueue(*args: Any, **kwargs: Any) -> list[OutboxRow]:
        nonlocal armed, enqueued_at
        rows = await claim(*args, **kwargs)
        claims.append(len(rows))
        if not rows and armed:  # the race: a handler's row and wake-up right after the claim
            armed = False
            enqueued_at = time.perf_counter()
            payload = Payload("error.anonymous_admin", {}).to_row()
            item = OutboxItem(key="after-claim", chat_id=table.group.id, payload=payload)
            await outbox.enqueue([item], services.now())
            services.outbox_ready.set()
        return rows

    monkeypatch.setattr(outbox, "claim", claim_then_enqueue)
    monkeypatch.setattr(sender, "_idle", lambda: 30.0)  # a lost wake-up would wait 30 s
    services.outbox_ready.set()  # the sender claims (nothing) now
    text = t("en", "error.anonymous_admin")
    await table.server.wait_for(lambda: any(text in m.text for m in table.group.messages()), 5)
    waited = time.perf_counter() - enqueued_at
    print(f"\nenqueued right after an empty claim: sent after {1000 * waited:.0f} ms")
    assert not armed
    first_empty = claims.index(0)
    assert claims[first_empty + 1] == 1, "the next claim did not take the row"
    assert waited < 1.0


async def test_a_chat_at_its_limit_waits_in_memory_without_database_writes(
    server: FakeTelegram, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Three replies to one person at one message a second: the 2nd and 3rd wait asleep,
    still claimed (no deferral written, no claim again), and arrive a second apart, in order."""
    alice = server.add_user("Alice", username="alice", language_code="en")
    alice.start_bot()
    harness = BotHarness(
        server, database_url(tmp_path), None, settings={"private_messages_per_second": 1}
    )
    await harness.start()
    try:
        outbox = harness.services.store.outbox
        deferred: list[int] = []
        defer = outbox.defer

        async def counted_defer(row_id: int, *args: Any, **kwargs: Any) -> bool:
            deferred.append(row_id)
            return await defer(row_id, *args, **kwargs)

        monkeypatch.setattr(outbox, "defer", counted_defer)
        for n in range(3):
            await harness.services.tell(alice.id, "error.anonymous_admin", key=f"limit-{n}")
        text = t("en", "error.anonymous_admin")
        await server.wait_for(lambda: len(_texts(alice, text)) == 3, 10)
        sends = [c for c in server.calls_to("sendMessage") if c.params.get("chat_id") == alice.id]
        gaps = [b.received - a.received for a, b in itertools.pairwise(sends)]
        assert len(sends) == 3 and all(gap >= 0.9 for gap in gaps), gaps
        assert deferred == [], "waiting for the slot wrote nothing"
    finally:
        await harness.stop()


def _texts(person: FakeUser, text: str) -> list[str]:
    return [m.text for m in person.private_messages() if text in m.text]


async def test_at_shutdown_a_delivery_asleep_on_a_limit_is_given_back_not_sent(
    server: FakeTelegram, tmp_path: Path
) -> None:
    """Three replies to one person at one message a second, the bot stopped right after the
    first: the two asleep on the limit are not sent while it stops (one sent in the last
    moments could be cut short after Telegram took it, then sent again); the next start
    sends them, each once."""
    alice = server.add_user("Alice", username="alice", language_code="en")
    alice.start_bot()
    url = database_url(tmp_path)
    limited = {"private_messages_per_second": 1}
    text = t("en", "error.anonymous_admin")
    harness = BotHarness(server, url, None, settings=limited)
    await harness.start()
    try:
        for n in range(3):
            await harness.services.tell(alice.id, "error.anonymous_admin", key=f"stop-{n}")
        await server.wait_for(lambda: len(_texts(alice, text)) == 1, 5)
        await asyncio.sleep(0.2)  # the other two asleep on the limit
    finally:
        await harness.stop()
    assert len(_texts(alice, text)) == 1, "a delivery asleep on the limit was sent at stop"
    restarted = BotHarness(server, url, None, settings=limited)
    await restarted.start()
    try:
        await server.wait_for(lambda: len(_texts(alice, text)) == 3, 10)
        await asyncio.sleep(1.5)
        assert len(_texts(alice, text)) == 3, "a message was sent twice"
        assert set(await restarted.services.store.outbox.counts()) == {"sent"}, "all settled"
    finally:
        await restarted.stop()


async def test_at_shutdown_a_send_under_way_finishes_and_is_marked(
    server: FakeTelegram, tmp_path: Path
) -> None:
    """Telegram answers a send slowly (1 s) and the bot stops meanwhile: the send finishes,
    its mark is written, and the next start sends nothing again."""
    alice = server.add_user("Alice", username="alice", language_code="en")
    alice.start_bot()
    url = database_url(tmp_path)
    text = t("en", "error.anonymous_admin")
    harness = BotHarness(server, url, None)
    await harness.start()
    try:
        server.delay_next("sendMessage", 1.0, chat_id=alice.id)
        await harness.services.tell(alice.id, "error.anonymous_admin", key="slow")
        await server.wait_for(lambda: bool(server.calls_to("sendMessage")), 5)
    finally:
        await harness.stop()
    assert len(_texts(alice, text)) == 1
    restarted = BotHarness(server, url, None)
    await restarted.start()
    try:
        await asyncio.sleep(1.5)
        assert len(_texts(alice, text)) == 1, "the message was sent again after the restart"
        assert set(await restarted.services.store.outbox.counts()) == {"sent"}, "all settled"
    finally:
        await restarted.stop()


async def test_a_database_that_does_not_answer_delays_the_message_and_loses_nothing(
    table: Party, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A pool timeout while a message is prepared is not the message's fault: it is tried
    again a moment later and delivered once (it used to be marked failed for good)."""
    failures: Iterator[Exception | None] = iter([PoolTimeout("QueuePool limit reached"), None])

    async def flaky(*args: Any) -> Any:
        failure = next(failures, None)
        if failure is not None:
            raise failure
        return await linked(*args)

    monkeypatch.setattr("bot.delivery.sender.linked", flaky)
    await table.bot.say(table.alice, table.group, "/rules")
    await table.bot.advance(timedelta(seconds=2))  # the first wait (1 s)
    assert next(failures, "spent") == "spent", "the database was asked again"
    assert _rules_posts(table.group) == 1
    assert (await table.bot.services.store.outbox.counts()) == {"sent": 1}
