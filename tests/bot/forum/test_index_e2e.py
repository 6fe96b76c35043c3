"""A forum game's index through the fake Bot API: one post in the game's thread, pinned
where the bot may pin, edited (never posted again) at each day, void, pause, extension,
replacement, accusation and at the end, its days linked to their opening posts; secrets
never in it; where the bot may not pin, nothing breaks and /status and the doctor say so."""

from __future__ import annotations

import dataclasses
import io
from datetime import timedelta

import pytest

from bot.config import BotConfig
from bot.doctor import doctor
from engine.cards import Category
from fakebot import FakeGroup, FakeMessage, FakeTopic
from fakebot.text import entity_text
from tests.support.harness import TOKEN, Party, bot_messages
from tests.support.play import (
    all_card_names,
    card_name,
    compose_accusation,
    naming,
    open_and_start,
    state,
)
from tests.support.table_play import open_classic
from tests.support.views import print_views

TITLE = "📌 Game index"
REFUSED = "Bad Request: not enough rights to manage pinned messages in the chat"


def index_posts(group: FakeGroup | FakeTopic) -> list[FakeMessage]:
    return [m for m in group.messages() if m.is_from_bot and m.text.startswith(TITLE)]


def the_index(group: FakeGroup | FakeTopic) -> FakeMessage:
    """The game's one index post (AssertionError if there is none, or more)."""
    found = index_posts(group)
    assert len(found) == 1, [m.text for m in found]
    return found[0]


def links(message: FakeMessage) -> dict[str, str]:
    """The message's linked words and where they point."""
    return {
        entity_text(message.text, e): e["url"] for e in message.entities if e["type"] == "text_link"
    }


def day_post(group: FakeGroup | FakeTopic, day: int) -> FakeMessage:
    """The post that opens the day (after day 1, the one that also tells the day before's end)."""
    return next(m for m in group.messages() if m.is_from_bot and f"☀️ Day {day} begins" in m.text)


def link_to(group: FakeGroup, message: FakeMessage, topic: int = 0) -> str:
    where = f"{topic}/{message.message_id}" if topic else str(message.message_id)
    return f"https://t.me/c/{str(group.id).removeprefix('-100')}/{where}"


def _named(text: str, names: dict[str, str]) -> set[str]:
    return {card for name, card in names.items() if name in text}


async def test_the_index_is_pinned_and_edited_as_the_game_goes(table: Party) -> None:
    group, server = table.group, table.server
    game_id = await open_and_start(table)
    game = await state(table, game_id)
    names = all_card_names(game)
    roles = {p.role for p in game.players}
    index = the_index(group)

    # Posted once after the start, pinned quietly.
    assert group.pinned == [index.message_id]
    [pin] = server.calls_to("pinChatMessage")
    assert pin.ok and pin.params["message_id"] == index.message_id
    assert pin.params["disable_notification"] is True
    assert (
        "days last 24 hours" in index.text and "suggestions a day for each player: 3" in index.text
    )
    assert "accusation window of 24 hours" in index.text
    for player in game.players:
        person = next(p for p in table.players if p.id == player.user)
        assert f"@{person.username} — {card_name(player.role)}" in index.text
    assert links(index) == {"Day 1": link_to(group, day_post(group, 1))}
    assert _named(index.text, names) == roles  # the roles, public; never a hand's card

    # A void, a pause and a resume, an extension: each edits the same post.
    carol = game.player_of(table.carol.id)
    assert carol is not None
    cards = naming(game, carol.hand[0])
    typed = "/suggest @carol " + "; ".join(card_name(c) for c in cards)
    await table.bot.say(table.bob, group, typed)
    suggestion = bot_messages(group)[-1]
    await table.bot.say(table.alice, group, "/void", reply_to=suggestion)
    assert "Day 1: @bob's suggestion 1 was voided" in the_index(group).text
    await table.bot.say(table.alice, group, "/pause")
    assert "Day 1: the game was paused Nov 30, 09:00 (UTC)" in the_index(group).text
    await table.bot.advance(timedelta(hours=2))
    await table.bot.say(table.alice, group, "/resume")
    assert "the game went on Nov 30, 11:00 (UTC) after a pause of 2 hours" in the_index(group).text
    await table.bot.say(table.alice, group, "/extend 2h")
    assert "Day 1 was extended: it ends Dec 1, 13:00 (UTC)" in the_index(group).text
    assert _named(the_index(group).text, names) == roles  # the suggestion's cards are not there

    # A replacement: the newcomer holds the seat and its suspect.
    erin = server.add_user("Erin", username="erin")
    erin.start_bot()
    await table.bot.say(erin, group, "hello")
    await table.bot.say(table.alice, group, "/replace @carol @erin")
    text = the_index(group).text
    assert f"@erin — {card_name(carol.role)}" in text and "@carol —" not in text
    assert "Day 1: @erin took over the seat of @carol" in text

    # The next day: linked to its own post.
    game = await state(table, game_id)
    assert game.day_ends_at is not None
    await table.bot.advance(game.day_ends_at - table.bot.clock.now() + timedelta(seconds=1))
    index = the_index(group)
    assert links(index) == {
        "Day 1": link_to(group, day_post(group, 1)),
        "Day 2": link_to(group, day_post(group, 2)),
    }

    # An accusation: who and when, never what.
    game = await state(table, game_id)
    assert game.envelope is not None
    place = next(c for c in game.in_play(Category.PLACE) if c != game.envelope[2])
    wrong = (game.envelope[0], game.envelope[1], place)
    await compose_accusation(table, table.dave, wrong)
    text = the_index(group).text
    assert "Day 2: @dave made an accusation Dec 1, 13:00 (UTC)" in text
    assert _named(text, names) == roles

    # Nobody in any private chat got it; the group has it once, always the same post.
    for person in [*table.players, erin]:
        assert not any(m.text.startswith(TITLE) for m in person.private_messages())
    assert the_index(group).message_id == index.message_id
    assert len(the_index(group).edits) >= 7

    # The end: how it ended, and the envelope (public by now); still pinned once.
    await table.bot.say(table.alice, group, "/endgame")
    text = the_index(group).text
    solution = ", ".join(card_name(c) for c in game.envelope)
    assert f"The end: an admin ended the game. The solution: {solution}." in text
    assert len(server.calls_to("pinChatMessage")) == 1 and group.pinned == [index.message_id]
    print_views("the game's index", [group], [*table.players, erin])


async def _doctor_line(table: Party, chat_id: int) -> str:
    """The doctor's line about one chat (and its fix, when it has one)."""
    config = BotConfig(
        bot_token=TOKEN,
        database_url=table.bot.config.database_url,
        telegram_api_url=table.server.base_url,
        _env_file=None,  # type: ignore[call-arg]
    )
    out = io.StringIO()
    await doctor(config, out)
    lines = out.getvalue().splitlines()
    at = next(i for i, x in enumerate(lines) if x.split()[1:3] == ["chat", str(chat_id)])
    return "\n".join(lines[at : at + 2])


@pytest.mark.parametrize("rights", ["member", "admin without the right to pin"])
async def test_where_the_bot_may_not_pin_the_game_goes_on_and_says_so(
    table: Party, rights: str
) -> None:
    people = table.players
    plain = table.server.add_group(
        "Plain club", admins=[table.alice], members=people[1:], bot_admin=rights != "member"
    )
    plain.bot_rights["can_pin_messages"] = False
    here = dataclasses.replace(table, group=plain)
    game_id = await open_and_start(here)

    index = the_index(plain)
    [pin] = table.server.calls_to("pinChatMessage")
    assert not pin.ok and pin.response["description"] == REFUSED
    assert plain.pinned == []
    assert not any(m.service.get("pinned_message") for m in plain.messages())

    await table.bot.say(table.bob, plain, "/status")
    status = bot_messages(plain)[-1]
    assert "Day 1" in status.text
    assert "The game's index could not be pinned" in status.text

    game = await state(here, game_id)
    assert game.day_ends_at is not None
    await table.bot.advance(game.day_ends_at - table.bot.clock.now() + timedelta(seconds=1))
    assert "Day 2" in links(the_index(plain))  # still edited as the game goes
    assert the_index(plain).message_id == index.message_id

    report = await _doctor_line(table, plain.id)
    told = "Not enough rights to manage pinned messages in the chat"  # as PTB words it
    assert f"the index of game {game_id} could not be pinned: {told}" in report
    if rights == "member":
        assert report.startswith("FAIL") and "not an admin" in report
    else:
        assert report.startswith("WARN") and "cannot pin the game's index" in report
        assert "give the bot the right to pin messages" in report


async def test_status_says_nothing_of_an_index_that_was_pinned(table: Party) -> None:
    await open_and_start(table)
    await table.bot.say(table.bob, table.group, "/status")
    status = bot_messages(table.group)[-1]
    assert "Day 1" in status.text and "pinned" not in status.text
    report = await _doctor_line(table, table.group.id)
    assert report.startswith("OK") and "can post, delete and pin messages" in report


async def test_in_a_forum_topic_the_days_link_into_the_topic(table: Party) -> None:
    people = table.players
    forum = table.server.add_group(
        "Forum club", forum=True, admins=[table.alice], members=people[1:], bot_admin=True
    )
    topic = forum.add_topic("Mystery")
    for person in people:
        person.start_bot()
    await table.bot.say(table.alice, forum, "/newgame", topic=topic)
    lobby = next(m for m in topic.messages() if m.is_from_bot and m.buttons)
    for person in people[1:]:
        await table.bot.press(person, lobby, "Join")
    await table.bot.press(table.alice, lobby, "Start the game")

    index = the_index(topic)
    assert index.thread_id == topic.thread_id and forum.pinned == [index.message_id]
    first_day = day_post(topic, 1)
    assert links(index) == {"Day 1": link_to(forum, first_day, topic.thread_id)}
    note = forum.messages()[-1]  # Telegram's note of the pin, in the topic
    assert note.service["pinned_message"]["message_id"] == index.message_id
    assert note.thread_id == topic.thread_id


async def test_a_basic_group_has_no_message_links_so_the_days_are_plain(table: Party) -> None:
    people = table.players
    basic = table.server.add_group(
        "Basic club", admins=[table.alice], members=people[1:], bot_admin=True, basic=True
    )
    await open_and_start(dataclasses.replace(table, group=basic))
    index = the_index(basic)
    assert "Days: Day 1" in index.text and links(index) == {}
    assert basic.pinned == [index.message_id]


async def test_a_table_game_has_no_index(table: Party) -> None:
    game_id = await open_classic(table, table.players[:3])
    assert (await state(table, game_id)).table is not None
    assert index_posts(table.group) == []
    assert table.server.calls_to("pinChatMessage") == []
