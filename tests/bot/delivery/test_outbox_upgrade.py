"""Rows already in an outbox when the bot is upgraded still deliver: payloads of format 1
(no version; `msg`; arguments typed by name suffixes), exactly as the code before typed
payloads wrote them, read the same as the same messages written in today's format."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from bot.payload import VERSION, Card, Cards, Moment, Payload, User, Users
from storage.messages_owed import OutboxItem
from tests.support.harness import Party, bot_messages

ENDS = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)


def _old_rows(table: Party) -> list[OutboxItem]:
    """Payload dicts as the planner and `Services.tell` wrote them before format 2."""
    chat, alice, bob = table.group.id, table.alice.id, table.bob.id
    return [
        OutboxItem(
            "old:suggestion",
            chat,
            payload={
                "msg": "suggestion.made",
                "args": {
                    "game": 1,
                    "number": 1,
                    "suggester_user": alice,
                    "target_user": bob,
                    "suspect_card": "scarlett",
                    "weapon_card": "rope",
                    "place_card": "hall",
                },
                "game": 1,
                "tz": "UTC",
            },
        ),
        OutboxItem(
            "old:day",
            chat,
            payload={
                "msg": "day.opened",
                "args": {
                    "game": 1,
                    "day": 2,
                    "ends_at": ENDS.isoformat(),
                    "per_day": 3,
                    "penalties": [{"user": bob, "count": 1}],
                },
                "game": 1,
                "tz": "UTC",
            },
        ),
        OutboxItem(
            "old:hand",
            bob,
            user_id=bob,
            payload={
                "msg": "dm.hand",
                "args": {
                    "game": 1,
                    "hand_cards": ["rope", "hall"],
                    "role_card": "scarlett",
                    "game_label": "Cluedo club",
                },
                "game": 1,
                "tz": "UTC",
                "notify": [chat, 0],
            },
        ),
        OutboxItem(
            "old:lobby",
            chat,
            payload={"msg": "status.lobby", "args": {"players_users": [alice, bob]}},
        ),
    ]


def _new_rows(table: Party) -> list[OutboxItem]:
    """The same messages, written in today's format."""
    chat, alice, bob = table.group.id, table.alice.id, table.bob.id
    triple = {"suspect": Card("scarlett"), "weapon": Card("rope"), "place": Card("hall")}
    suggestion: dict[str, Any] = {"game": 1, "number": 1, "suggester": User(alice)}
    day: dict[str, Any] = {"game": 1, "day": 2, "ends_at": Moment.of(ENDS), "per_day": 3}
    hand = {"game": 1, "hand": Cards(("rope", "hall")), "role": Card("scarlett")}
    return [
        OutboxItem(
            "new:suggestion",
            chat,
            payload=Payload(
                "suggestion.made", {**suggestion, "target": User(bob), **triple}, game=1, tz="UTC"
            ).to_row(),
        ),
        OutboxItem(
            "new:day",
            chat,
            payload=Payload(
                "day.opened",
                {**day, "penalties": [{"user": User(bob), "count": 1}]},
                game=1,
                tz="UTC",
            ).to_row(),
        ),
        OutboxItem(
            "new:hand",
            bob,
            user_id=bob,
            payload=Payload(
                "dm.hand",
                {**hand, "game_label": "Cluedo club"},
                game=1,
                tz="UTC",
                notify=(chat, 0),
            ).to_row(),
        ),
        OutboxItem(
            "new:lobby",
            chat,
            payload=Payload("status.lobby", {"players": Users((alice, bob))}).to_row(),
        ),
    ]


async def test_rows_of_the_old_format_deliver_as_the_new_ones_do(table: Party) -> None:
    await table.bot.say(table.alice, table.group, "/rules")  # the bot learns their names
    table.bob.start_bot()
    await table.bot.settle()
    store = table.bot.services.store
    new = _new_rows(table)
    assert all(item.payload["v"] == VERSION for item in new)
    assert all("msg" not in item.payload for item in new)
    posts_before = len(bot_messages(table.group))
    private_before = len(table.bob.private_messages())

    await store.outbox.enqueue(_old_rows(table), table.bot.services.now())
    await table.bot.settle()
    old_posts = [m.text for m in bot_messages(table.group)[posts_before:]]
    old_private = [m.text for m in table.bob.private_messages()[private_before:]]
    await store.outbox.enqueue(new, table.bot.services.now())
    await table.bot.settle()
    new_posts = [m.text for m in bot_messages(table.group)[posts_before + len(old_posts) :]]
    new_private = [m.text for m in table.bob.private_messages()[private_before + 1 :]]

    assert len(old_posts) == 3 and len(old_private) == 1
    suggestion, day, lobby = old_posts
    assert "Suggestion 1 for @bob" in suggestion
    assert "@alice: I suggest it was Miss Scarlett with the Rope in the Hall" in suggestion
    assert "Day 2 begins. It ends Mar 2, 12:00 (UTC)" in day and "@bob" in day
    assert "@alice, @bob" in lobby
    assert "Your cards: Rope, Hall" in old_private[0]
    assert "Your character: Miss Scarlett" in old_private[0]
    assert "Cluedo club" in old_private[0]
    assert old_posts == new_posts
    assert old_private == new_private
    assert (await store.outbox.counts()) == {"sent": 2 + 2 * len(new)}
