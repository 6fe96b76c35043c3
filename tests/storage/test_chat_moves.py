"""A group that becomes a supergroup: its games, defaults and owed messages move, once."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from datetime import timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Connection

from engine import commands as cmd
from engine.cards import custom_pack
from engine.settings import Settings
from engine.standings import FORUM
from simulation.randomplay import START
from simulation.rated_games import archive, played
from storage.messages_owed import OutboxItem
from storage.models import DeadlineRecord, GameRecord, OutboxRecord
from storage.rating_math import EVERY_CHAT
from storage.service import Store
from tests.support.stored_games import CHAT, NOW, later, new_game, planner, suggestion_for

NEW = -1009999999999
OTHER = -1005555555555
PACK = custom_pack(
    ["Ann", "Ben", "Cid"], ["Axe", "Bat", "Cue"], ["Den", "Eel", "Fen", "Gym", "Hut", "Inn"]
)


def _rows(conn: Connection) -> dict[str, Any]:
    o, g, d = OutboxRecord, GameRecord, DeadlineRecord
    return {
        "outbox": {r.key: r for r in conn.execute(select(o)).all()},
        "games": {r.id: r.chat_id for r in conn.execute(select(g)).all()},
        "deadlines": sorted((r.game_id, r.key) for r in conn.execute(select(d)).all()),
    }


async def _owed_to_the_old_chat(store: Store) -> int:
    """Rows of every kind the old chat is owed; returns the id of the one claimed now."""
    plain = {"msg": "x"}
    await store.outbox.enqueue(
        [
            OutboxItem("head", CHAT, payload=plain),
            OutboxItem("reply", CHAT, payload={"msg": "y", "reply_to_message_id": 41}),
            OutboxItem("dm", 7, user_id=7, payload={"msg": "z", "notify": [CHAT, 0]}),
            OutboxItem("dm-other", 8, user_id=8, payload={"msg": "z", "notify": [OTHER, 0]}),
            OutboxItem("other", OTHER, payload=plain),
        ],
        NOW,
    )
    claimed = {row.key: row for row in await store.outbox.claim("w", NOW)}
    await store.outbox.mark_undeliverable(claimed["dm"].id, "forbidden")  # a person not started yet
    await store.outbox.mark_sent(claimed["other"].id, 5, NOW)
    return claimed["head"].id  # in flight when the group is upgraded


async def test_everything_of_the_chat_moves_in_one_go_and_nothing_else(store: Store) -> None:
    game = await new_game(store)
    ended = await new_game(store, topic_id=3)
    await store.execute(ended.game_id, cmd.EndGame(actor=1, actor_is_admin=True), NOW, planner)
    elsewhere = await new_game(store, chat_id=OTHER)
    await store.chats.set_pack(CHAT, PACK, NOW)
    await store.chats.set_settings(CHAT, Settings(pack="custom", suggestions_per_day=5), NOW)
    await store.chats.set_language(CHAT, "ru", NOW)
    await store.chats.set_name(CHAT, 0, "Baker Street Irregulars", NOW)
    sent_before = await store.outbox.enqueue([OutboxItem("sent", CHAT, payload={"msg": "s"})], NOW)
    assert sent_before == 1
    # Deliver what the games owe so far, so the rows below are the chat's queue.
    while claimed := await store.outbox.claim("w", NOW, limit=100):
        for row in claimed:
            await store.outbox.mark_sent(row.id, 1, NOW)
    before = await store.db.run_read(_rows)
    in_flight = await _owed_to_the_old_chat(store)

    moved = await store.chats.migrate(CHAT, NEW)

    assert (moved.games, moved.settings, moved.outbox, moved.notify) == (2, True, 2, 1)
    after = await store.db.run_read(_rows)
    assert after["games"] == {game.game_id: NEW, ended.game_id: NEW, elsewhere.game_id: OTHER}
    assert after["deadlines"] == before["deadlines"], "deadlines are the game's, not the chat's"
    found = await store.game_for_chat(NEW, 0)
    assert found is not None and found.id == game.game_id
    assert await store.game_for_chat(CHAT, 0) is None
    defaults = await store.chats.get(NEW)
    assert defaults.language == "ru" and defaults.pack == PACK
    assert defaults.settings.suggestions_per_day == 5 and defaults.settings.pack == "custom"
    assert (await store.chats.get(CHAT)).language is None
    assert await store.chats.label(NEW, 0) == "Baker Street Irregulars", "the title moves too"
    outbox = after["outbox"]
    assert {k: outbox[k].chat_id for k in ("head", "reply")} == {"head": NEW, "reply": NEW}
    assert outbox["head"].status == "claimed", "the sender holding it settles it"
    assert '"reply_to_message_id"' not in outbox["reply"].payload, "old ids mean nothing there"
    assert f'"notify":[{NEW},0]' in outbox["dm"].payload
    assert f'"notify":[{OTHER},0]' in outbox["dm-other"].payload
    assert outbox["sent"].chat_id == CHAT, "a sent row records where it went"
    # Its message can be neither edited nor replied to in the new chat, which numbers anew.
    assert await store.outbox.sent_message_id("sent", CHAT) == 1
    assert await store.outbox.sent_message_id("sent", NEW) is None
    assert outbox["other"].chat_id == OTHER

    # The send that was in flight is refused (migrate_to_chat_id): retried, to the new chat.
    assert await store.outbox.mark_retry(in_flight, "migrated", later(seconds=1))
    [head] = await store.outbox.claim("w", later(seconds=1))
    assert (head.key, head.chat_id) == ("head", NEW)
    await store.outbox.mark_sent(head.id, 1, later(seconds=1))
    [reply] = await store.outbox.claim("w", later(seconds=2))
    assert (reply.key, reply.chat_id, reply.reply_to_message_id) == ("reply", NEW, None)


async def test_moving_again_in_any_order_or_from_two_workers_changes_nothing(
    store: Store, db_url: str
) -> None:
    game = await new_game(store)
    await store.chats.set_language(CHAT, "ru", NOW)
    second = await Store.open(db_url, migrate=False)
    try:
        first_move, other_move = await asyncio.gather(
            store.chats.migrate(CHAT, NEW), second.chats.migrate(CHAT, NEW)
        )
        assert first_move.anything != other_move.anything, "exactly one of them moved it"
        snapshot = await store.db.run_read(_rows)
        assert not (await store.chats.migrate(CHAT, NEW)).anything
        assert not (await second.chats.migrate(CHAT, NEW)).anything
        assert await store.db.run_read(_rows) == snapshot
    finally:
        await second.close()
    found = await store.game_for_chat(NEW, 0)
    assert found is not None and found.id == game.game_id
    assert (await store.chats.get(NEW)).language == "ru"


async def test_a_command_after_the_move_writes_to_the_new_chat(store: Store, db_url: str) -> None:
    """This process cached the game under the old chat; another process moved it."""
    game = await new_game(store)
    other = await Store.open(db_url, migrate=False)
    try:
        await other.chats.migrate(CHAT, NEW)
    finally:
        await other.close()
    state = await store.load(game.game_id)
    suggestion = suggestion_for(state, state.players[0].user, state.players[1].user)
    outcome = await store.execute(game.game_id, suggestion, later(minutes=1), planner)
    key = f"g{game.game_id}:e{outcome.first_seq}"
    rows = (await store.db.run_read(_rows))["outbox"]
    assert rows[key].chat_id == NEW
    # And again, now that this process wrote it (its own cache follows the new chat).
    state = outcome.state
    again = suggestion_for(state, state.players[0].user, state.players[2].user, n=1)
    outcome = await store.execute(game.game_id, again, later(minutes=2), planner)
    rows = (await store.db.run_read(_rows))["outbox"]
    assert rows[f"g{game.game_id}:e{outcome.first_seq}"].chat_id == NEW


async def test_the_new_chats_own_choices_win_and_the_rest_comes_along(store: Store) -> None:
    await store.chats.set_pack(CHAT, PACK, NOW)
    await store.chats.set_settings(CHAT, Settings(pack="custom", suggestions_per_day=5), NOW)
    await store.chats.set_language(CHAT, "ru", NOW)
    await store.chats.set_language(NEW, "en", later(minutes=1))  # chosen there first
    await store.chats.migrate(CHAT, NEW)
    merged = await store.chats.get(NEW)
    assert merged.language == "en" and merged.pack == PACK
    assert merged.settings.suggestions_per_day == 5 and merged.settings.pack == "custom"


async def test_the_bots_introduction_moves_along(store: Store) -> None:
    """An upgraded group is not introduced to again, nor told again what the bot lacks."""
    day = timedelta(days=1)
    await store.chats.welcome(CHAT, "not_admin", NOW, day, lambda _: [])
    await store.chats.set_language(NEW, "en", later(minutes=1))  # the new chat has a row too
    await store.chats.migrate(CHAT, NEW)
    welcome = await store.chats.welcome(NEW, "not_admin", later(minutes=2), day, lambda _: [])
    assert (welcome.introduce, welcome.tell) == (False, "")


async def test_a_parked_group_is_held_until_released_in_order(store: Store) -> None:
    """The bot was removed from the group: the head row is parked, the rest wait behind it."""
    await store.outbox.enqueue(
        [OutboxItem(f"p{i}", CHAT, payload={"msg": "x"}) for i in range(3)], NOW
    )
    [head] = await store.outbox.claim("w", NOW)
    assert await store.outbox.park_chat(head.id, "Forbidden: bot was kicked from the group chat")
    assert await store.outbox.claim("w", later(hours=1)) == []
    assert await store.outbox.release_chat(OTHER, later(hours=1)) == 0
    assert await store.outbox.release_chat(CHAT, later(hours=1)) == 1
    order = []
    moment = later(hours=1)
    while claimed := await store.outbox.claim("w", moment):
        for row in claimed:
            order.append(row.key)
            await store.outbox.mark_sent(row.id, len(order), moment)
        moment += timedelta(seconds=1)
    assert order == ["p0", "p1", "p2"]


async def test_the_chats_ratings_and_seasons_move_and_a_recompute_still_agrees(
    store: Store,
) -> None:
    for number, seed in enumerate((1, 3, 5, 7)):
        events = played(seed, detectives_every=10)
        await archive(store, CHAT, events, START + timedelta(hours=number))
        if number == 1:
            await store.ratings.rate_pending()
            assert await store.seasons.start(CHAT, 2, by=1, at=NOW)
    await store.ratings.rate_pending()
    before = await store.ratings.stored()
    boards = [await store.ratings.leaderboard(CHAT, FORUM, season=s, min_games=1) for s in (1, 2)]
    assert all(boards)
    await store.chats.migrate(CHAT, NEW)
    moved = await store.ratings.stored()
    assert {k.chat_id for k in moved} == {NEW, EVERY_CHAT}
    assert moved == {
        (replace(k, chat_id=NEW) if k.chat_id == CHAT else k): r for k, r in before.items()
    }
    assert (await store.seasons.current(NEW), await store.seasons.current(CHAT)) == (2, 1)
    for season, board in zip((1, 2), boards, strict=True):
        assert await store.ratings.leaderboard(NEW, FORUM, season=season, min_games=1) == board
    assert (await store.ratings.recompute()).differed == 0
    assert not (await store.chats.migrate(CHAT, NEW)).anything
    assert await store.ratings.stored() == moved
