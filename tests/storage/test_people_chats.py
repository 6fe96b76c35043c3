"""People and chat defaults."""

from __future__ import annotations

import uuid
from datetime import timedelta

from engine.settings import Settings
from storage.chats import Welcome
from storage.messages_owed import OutboxItem
from storage.models import OutboxStatus
from storage.service import Store
from tests.support.stored_games import NOW, later


async def test_people_are_upserted_and_found(store: Store) -> None:
    person = await store.people.upsert(7, "Ann", "AnnK", "ru", NOW)
    assert (person.name, person.dm_ok, person.created_at) == ("Ann", None, NOW)
    assert await store.people.set_dm_ok(7, True, later(minutes=1))
    again = await store.people.upsert(7, "Ann K.", None, "be", later(minutes=2))
    assert (again.name, again.username, again.language_code) == ("Ann K.", None, "be")
    assert again.dm_ok is True and again.created_at == NOW
    assert await store.people.get(7) == again
    assert await store.people.get(8) is None
    assert not await store.people.set_dm_ok(8, False)
    await store.people.upsert(8, "Bob", "bob", None, NOW)
    assert await store.people.by_username("@BOB") == 8
    assert await store.people.by_username("annk") is None
    assert set(await store.people.get_many([7, 8, 9])) == {7, 8}


async def test_chat_defaults(store: Store) -> None:
    blank = await store.chats.get(-5)
    assert blank.settings == Settings() and blank.language is None
    await store.chats.set_language(-5, "be", NOW)
    chosen = Settings(day_length=timedelta(hours=12), max_received_per_day=4)
    await store.chats.set_settings(-5, chosen, NOW)
    found = await store.chats.get(-5)
    assert (found.settings, found.language) == (chosen, "be")
    await store.chats.set_settings(-6, chosen)
    assert (await store.chats.get(-6)).language is None


async def test_a_group_that_becomes_a_supergroup_keeps_its_game_and_owed_messages(
    store: Store,
) -> None:
    from storage.messages_owed import OutboxItem
    from tests.support.stored_games import CHAT, new_game

    game = await new_game(store)
    await store.chats.set_language(CHAT, "ru")
    await store.outbox.enqueue([OutboxItem(key="owed", chat_id=CHAT, payload={"msg": "x"})], NOW)
    new_chat = CHAT - 1
    await store.chats.migrate(CHAT, new_chat)
    found = await store.game_for_chat(new_chat, 0)
    assert found is not None and found.id == game.game_id
    assert await store.game_for_chat(CHAT, 0) is None
    assert (await store.chats.get(new_chat)).language == "ru"
    delivered = []
    while claimed := await store.outbox.claim("w", later(minutes=1), limit=100):
        for row in claimed:
            delivered.append((row.key, row.chat_id))
            await store.outbox.mark_sent(row.id, 1, later(minutes=1))
    assert ("owed", new_chat) in delivered and {chat for _, chat in delivered} == {new_chat}


async def test_chat_titles_and_topic_names_make_a_games_label(store: Store) -> None:
    assert await store.chats.label(-5, 0) == ""
    await store.chats.set_name(-5, 0, "Cluedo club", NOW)
    await store.chats.set_name(-5, 7, "Mysteries", NOW)
    assert await store.chats.label(-5, 0) == "Cluedo club"
    assert await store.chats.label(-5, 7) == "Cluedo club · Mysteries"
    assert await store.chats.label(-5, 8) == "Cluedo club"
    await store.chats.set_name(-5, 0, "Cluedo club (autumn)", later(minutes=1))
    assert await store.chats.label(-5, 7) == "Cluedo club (autumn) · Mysteries"


async def test_the_bot_introduces_itself_once_a_day_and_tells_each_lack_once(
    store: Store,
) -> None:
    chats, day = store.chats, timedelta(days=1)
    first = await chats.welcome(-7, "not_admin", NOW, day, _owed)
    assert (first.introduce, first.tell) == (True, "not_admin")
    assert await store.outbox.counts() == {OutboxStatus.PENDING: 2}, "stored in the same write"
    assert (await chats.get(-7)).settings == Settings(), "the row keeps the defaults"
    again = await chats.welcome(-7, "not_admin", later(hours=23), day, _owed)
    assert (again.introduce, again.tell) == (False, "")
    assert await store.outbox.counts() == {OutboxStatus.PENDING: 2}
    assert (await chats.welcome(-7, "no_pin", later(hours=23), day, _owed)).tell == "no_pin"
    assert (await chats.welcome(-7, "", later(hours=23), day, _owed)).tell == ""
    assert (await chats.welcome(-7, "no_pin", later(hours=23), day, _owed)).tell == "no_pin"
    # A day after the introduction: introduced again, and what it lacks told with it.
    late = await chats.welcome(-7, "no_pin", later(hours=25), day, _owed)
    assert (late.introduce, late.tell) == (True, "no_pin")


def _owed(welcome: Welcome) -> list[OutboxItem]:
    """An item for each thing said, keyed by what it says."""
    said = ["intro"] * welcome.introduce + [welcome.tell] * bool(welcome.tell)
    return [OutboxItem(f"{what}:{uuid.uuid4()}", -7, payload={"msg": what}) for what in said]


async def test_no_introduction_where_a_game_is_under_way(store: Store) -> None:
    from tests.support.stored_games import CHAT, new_game

    await new_game(store)
    welcome = await store.chats.welcome(CHAT, "", NOW, timedelta(days=1), lambda _: [])
    assert (welcome.introduce, welcome.tell) == (False, "")
