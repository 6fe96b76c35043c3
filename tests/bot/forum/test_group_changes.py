"""A group changes under a running game: upgraded to a supergroup (new chat id), or the bot
kicked and added back. Nothing owed is lost, doubled or sent to the wrong chat."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import select
from sqlalchemy.engine import Connection

from engine.cards import Category
from fakebot import FakeGroup, FakeTelegramClient, FakeUser, RemoteGroup, RemoteMessage
from storage.models import OutboxRecord
from tests.support.harness import Party, bot_messages
from tests.support.play import PACK, compose_suggestion, naming, open_and_start, state
from tests.support.processes import bot_env, start_bot, stop_bot


@pytest.fixture
def basic(table: Party) -> Party:
    """The same people in a basic group (the kind Telegram upgrades)."""
    group = table.server.add_group(
        "Old club",
        admins=[table.alice],
        members=[table.bob, table.carol, table.dave],
        bot_admin=True,
        basic=True,
    )
    return dataclasses.replace(table, group=group)


def _calls_to(table: Party, chat_id: int, since: int = 0) -> list[int]:
    """HTTP statuses of the bot's calls about `chat_id` (from call number `since`), in order."""
    return [c.status for c in table.server.calls[since:] if c.params.get("chat_id") == chat_id]


def _group_rows(conn: Connection, chat_id: int, after_id: int) -> list[tuple[int, str, int]]:
    o = OutboxRecord
    query = (
        select(o.id, o.status, o.sent_message_id)
        .where(o.chat_id == chat_id, o.user_id.is_(None), o.id > after_id)
        .order_by(o.id)
    )
    return [tuple(r) for r in conn.execute(query).all()]  # type: ignore[misc]


def _edit_rows(conn: Connection, chat_id: int, after_id: int) -> set[int]:
    """The ids of the group's rows after `after_id` that edit an earlier post."""
    o = OutboxRecord
    query = select(o.id).where(
        o.chat_id == chat_id, o.id > after_id, o.payload.contains('"op":"edit"')
    )
    return set(conn.execute(query).scalars())


async def _last_row_id(table: Party) -> int:
    rows = await table.bot.services.store.db.run_read(_group_rows, table.group.id, 0)
    return rows[-1][0] if rows else 0


@pytest.mark.parametrize("service_first", [True, False], ids=["service-first", "error-first"])
async def test_a_group_upgraded_mid_day_keeps_its_game(basic: Party, service_first: bool) -> None:
    t, old = basic, basic.group
    await t.bot.say(t.alice, old, PACK)
    await t.bot.say(t.alice, old, "/settings suggestions_per_day 5")
    game_id = await open_and_start(t)
    game = await state(t, game_id)
    names = dict(game.pack.labels)
    cards = [names[game.in_play(c)[0]] for c in Category]
    posts_before = len(bot_messages(old))

    if service_first:
        # An owed post in flight: bob's /status reply failed once and waits for its retry;
        # then the group is upgraded and Telegram's two service messages come first.
        t.server.fail_next("sendMessage", 502)
        await t.bot.say(t.bob, old, "/status")
        upgraded_at = len(t.server.calls)
        new = old.migrate()
        await t.bot.settle()
        await t.bot.advance(timedelta(seconds=3))
        owed = next(m for m in bot_messages(new) if "Day 1" in m.text)
        assert owed.reply_to is None, "old message ids mean nothing in the new chat"
    else:
        # The upgrade's service messages are late: a suggestion's post, claimed and sent to
        # the old id, is refused with migrate_to_chat_id and must follow to the new chat.
        upgraded_at = len(t.server.calls)
        new = old.migrate(deliver=False)
        await _compose(t, t.bob, t.carol, cards)
        owed = next(m for m in bot_messages(new) if m.text.startswith("Suggestion 1"))
        assert "for @carol" in owed.text
        told = [m for m in old.messages() if m.service] + new.messages()[:1]
        for message in told * 2:  # then both service messages, each twice
            t.server.world.deliver(message)
        await t.bot.settle()
    assert [m.text for m in bot_messages(new)].count(owed.text) == 1, "the owed post, once"

    # The game, its settings and the chat's pack live in the new chat now.
    await t.bot.say(t.carol, new, "/status")
    status = bot_messages(new)[-1]
    assert "Day 1" in status.text and "There is no game" not in status.text
    await t.bot.say(t.dave, new, f"/suggest @alice {cards[0]}; {cards[1]}; {cards[2]}")
    post = next(m for m in bot_messages(new) if m.text.startswith("Suggestion 1 for @alice"))
    assert post.bold[1:] == cards
    game = await state(t, game_id)
    alice = game.player_of(t.alice.id)
    assert alice is not None
    if any(card in alice.hand for card in game.suggestions[-1].cards):
        await t.alice.wait_private(lambda m: "Suggestion 1" in m.text and bool(m.buttons))
    else:  # answered at once, as a reply to the post in the new chat
        answer = bot_messages(new)[-1]
        assert "No refutation" in answer.text and answer.reply_to is post
    await t.bot.say(t.alice, new, "/pack")
    assert "Baker Street" in bot_messages(new)[-1].text
    assert game.settings.suggestions_per_day == 5
    defaults = await t.bot.services.store.chats.get(new.id)
    assert defaults.settings.suggestions_per_day == 5 and defaults.pack == game.pack

    # Nothing went to the old id after the upgrade (but the one send that learnt of it).
    assert len(bot_messages(old)) == posts_before
    assert _calls_to(t, old.id, upgraded_at) == ([] if service_first else [400])
    counts = await t.bot.services.store.outbox.counts()
    assert set(counts) == {"sent"}, counts


async def _compose(t: Party, who: FakeUser, target: FakeUser, cards: list[str]) -> None:
    """The private composer, pressing the buttons by the pack's card names."""
    await t.bot.say(who, None, "/suggest")
    composer = who.private_messages()[-1]
    for button in (target.first_name, *cards, "Send the suggestion"):
        composer = next(m for m in who.private_messages() if m.message_id == composer.message_id)
        await t.bot.press(who, composer, button)


async def test_posts_missed_while_the_bot_was_kicked_arrive_in_order_once(table: Party) -> None:
    group: FakeGroup = table.group
    game_id = await open_and_start(table)
    game = await state(table, game_id)
    before = len(bot_messages(group))
    first_owed = await _last_row_id(table)
    calls_before = len(_calls_to(table, group.id))

    group.remove_bot()
    await table.bot.settle()
    # The game runs on unseen: a suggestion from the private composer, then the day ends.
    carol = game.player_of(table.carol.id)
    assert carol is not None
    await compose_suggestion(table, table.bob, table.carol, naming(game, carol.hand[0]))
    assert game.day_ends_at is not None
    await table.bot.advance(game.day_ends_at - table.bot.clock.now() + timedelta(seconds=1))
    await table.bot.advance(timedelta(hours=2))
    assert (await state(table, game_id)).day == 2
    assert len(bot_messages(group)) == before
    assert _calls_to(table, group.id)[calls_before:] == [403], "one try, then the chat waits"
    owed = await table.bot.services.store.db.run_read(_group_rows, group.id, first_owed)
    assert len(owed) >= 3 and owed[0][1] == "waiting_for_person"
    assert {status for _, status, _ in owed[1:]} == {"pending"}

    group.add_bot(admin=True)
    await table.bot.settle()

    rows = await table.bot.services.store.db.run_read(_group_rows, group.id, first_owed)
    assert [r[0] for r in rows] == [r[0] for r in owed], "nothing owed was lost or added"
    assert {status for _, status, _ in rows} == {"sent"}
    edits = await table.bot.services.store.db.run_read(_edit_rows, group.id, first_owed)
    sent_ids = [message_id for row_id, _, message_id in rows if row_id not in edits]
    assert sent_ids == sorted(sent_ids) and len(set(sent_ids)) == len(sent_ids), "in order"
    missed = bot_messages(group)[before:]
    assert [m.message_id for m in missed] == sent_ids, "each once, nothing else"
    edited = {message_id for row_id, _, message_id in rows if row_id in edits}
    assert edited <= {m.message_id for m in bot_messages(group)[:before]}, "posts of before"
    assert missed[0].text.startswith("Suggestion 1 for @carol")
    assert any("Day 2" in m.text for m in missed)
    # And the group hears the game again as it goes on.
    await table.bot.say(table.carol, group, "/status")
    assert "Day 2" in bot_messages(group)[-1].text


@pytest.mark.slow
async def test_whodunit_run_hears_the_upgrade_and_the_kick(tmp_path: Path) -> None:
    """The real process asks Telegram for the updates these changes come as."""
    fake = await FakeTelegramClient.launch("123:ABC")
    process: asyncio.subprocess.Process | None = None
    try:
        env = bot_env("123:ABC", fake.base_url, f"sqlite:///{tmp_path}/bot.db")
        process = await start_bot(env, tmp_path)
        await fake.wait_for(lambda: _polling(fake), timeout=30)
        alice = await fake.add_user("Alice", username="alice")
        old = await fake.add_group("Club", admins=[alice], basic=True)
        await alice.start_bot()
        await alice.send(old, "/newgame")
        await _bot_post(fake, old, lambda m: bool(m.buttons))
        new = await old.migrate()
        await alice.send(new, "/status")
        status = await _bot_post(fake, new, lambda m: True)
        assert "no game" not in status.text and "@alice" in status.text
        await new.remove_bot()
        await new.add_bot()
        await fake.wait_for(_drained(fake), timeout=15)
    except BaseException:
        print(await stop_bot(process) if process is not None else "the bot did not start")
        raise
    finally:
        await fake.aclose()
    output = await stop_bot(process)
    assert f"the bot is no longer in chat {new.id} (kicked)" in output, output


async def _polling(fake: FakeTelegramClient) -> bool:
    return bool(await fake.calls("deleteWebhook"))  # the last step before polling


def _drained(fake: FakeTelegramClient):  # type: ignore[no-untyped-def]
    async def check() -> bool:
        return not await fake.updates()

    return check


async def _bot_post(
    fake: FakeTelegramClient, group: RemoteGroup, predicate: Callable[[RemoteMessage], bool]
) -> RemoteMessage:
    async def check() -> RemoteMessage | None:
        found = [m for m in await group.messages() if m.from_user_id == 1000 and predicate(m)]
        return found[0] if found else None

    found: RemoteMessage = await fake.wait_for(check, 15)
    return found
