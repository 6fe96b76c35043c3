"""An edited command is never read: nothing changes in the game, the group sees nothing, and
its author is told once, in private, however often they edit that message."""

from __future__ import annotations

from engine.cards import CATEGORY_ORDER
from engine.state import Game
from fakebot import FakeUser
from locales import t
from tests.support.harness import Party, bot_messages
from tests.support.play import card_name, open_and_start, state
from tests.support.views import print_views


def _typed(target: str, cards: tuple[str, ...]) -> str:
    return f"/suggest @{target} " + "; ".join(card_name(c) for c in cards)


def _cards(game: Game, index: int) -> tuple[str, ...]:
    return tuple(game.in_play(category)[index] for category in CATEGORY_ORDER)


def _notices(person: FakeUser) -> list[str]:
    said = (t("en", "edit.not_read", command="/suggest", chat="Cluedo club"),)
    return [m.text for m in person.private_messages() if m.text in said]


async def test_an_edited_suggestion_changes_nothing_and_its_author_is_told_once(
    table: Party,
) -> None:
    game_id = await open_and_start(table)
    game = await state(table, game_id)
    sent = await table.bot.say(table.bob, table.group, _typed("carol", _cards(game, 0)))
    before = await state(table, game_id)
    events = len(await table.bot.services.store.events(game_id))
    posts = len(bot_messages(table.group))
    [original] = before.suggestions
    assert original.cards == _cards(game, 0)

    table.bob.edit(sent, _typed("dave", _cards(game, 1)))
    await table.bot.settle()
    assert await state(table, game_id) == before  # the original suggestion stands, alone
    assert len(await table.bot.services.store.events(game_id)) == events
    assert len(bot_messages(table.group)) == posts
    assert _notices(table.bob) == [
        "✏️ You edited /suggest in “Cluedo club”. I do not read edited messages: nothing "
        "changed, and your original message stands. To change something, send a new command."
    ]

    for target in ("alice", "dave", "carol"):  # edited again, and again in a burst
        table.bob.edit(sent, _typed(target, _cards(game, 2)))
    await table.bot.settle()
    table.server.world.deliver(sent, kind="edited_message")  # the same edit delivered twice
    await table.bot.settle()
    assert await state(table, game_id) == before
    assert len(bot_messages(table.group)) == posts
    assert len(_notices(table.bob)) == 1
    for person in (table.alice, table.carol, table.dave):
        assert not _notices(person)
    print_views("an edited /suggest", [table.group], table.players)


async def test_edits_of_plain_messages_and_of_private_commands(table: Party) -> None:
    await open_and_start(table)
    chatter = await table.bot.say(table.carol, table.group, "who has the rope?")
    heard = len(table.carol.private_messages())
    table.carol.edit(chatter, "who has the candlestick?")
    await table.bot.settle()
    assert len(table.carol.private_messages()) == heard  # not a command: not answered

    hand = await table.bot.say(table.carol, None, "/hand")
    heard = len(table.carol.private_messages())
    for text in ("/hand please", "/hand now"):
        table.carol.edit(hand, text)
    await table.bot.settle()
    assert [m.text for m in table.carol.private_messages()[heard:]] == [
        t("en", "edit.not_read_here", command="/hand")
    ]


async def test_someone_who_never_started_the_bot_finds_the_notice_when_they_do(
    table: Party,
) -> None:
    sent = await table.bot.say(table.dave, table.group, "/status")
    posts = len(bot_messages(table.group))
    table.dave.edit(sent, "/status now")
    await table.bot.settle()
    assert len(bot_messages(table.group)) == posts  # nothing in the group about it
    table.dave.start_bot()
    await table.bot.settle()
    notice = t("en", "edit.not_read", command="/status", chat="Cluedo club")
    assert [m.text for m in table.dave.private_messages()].count(notice) == 1


async def test_edited_top_and_me_are_not_read_either(table: Party) -> None:
    table.alice.start_bot()
    top = await table.bot.say(table.alice, table.group, "/top")
    me = await table.bot.say(table.alice, None, "/me")
    posts, heard = len(bot_messages(table.group)), len(table.alice.private_messages())
    table.alice.edit(top, "/top all")
    table.alice.edit(me, "/me please")
    await table.bot.settle()
    assert len(bot_messages(table.group)) == posts  # no second leaderboard
    assert sorted(m.text for m in table.alice.private_messages()[heard:]) == sorted(
        [
            t("en", "edit.not_read", command="/top", chat="Cluedo club"),
            t("en", "edit.not_read_here", command="/me"),
        ]
    )
