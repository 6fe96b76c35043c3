"""A forum day's end through the fake Bot API: at most two group calls, one post (the day's
end, what the GM answered, the digest, the new day, the calls for a replacement with their
buttons) and the index's one edit; every private message as before."""

from __future__ import annotations

from datetime import timedelta

from engine.cards import CATEGORY_ORDER
from engine.state import Game, Player
from fakebot import FakeUser
from fakebot.server import ApiCall
from tests.support.harness import Party, bot_messages
from tests.support.play import card_name, compose_accusation, naming, open_and_start, state
from tests.support.views import print_views

POSTS = ("sendMessage", "sendPhoto", "sendDocument", "sendMediaGroup")
EDITS = ("editMessageText", "editMessageCaption", "editMessageMedia", "editMessageReplyMarkup")


def _seat(game: Game, person: FakeUser) -> Player:
    player = game.player_of(person.id)
    assert player is not None
    return player


def _typed(cards: tuple[str, str, str]) -> str:
    return "; ".join(card_name(c) for c in cards)


def _none_held(game: Game, target: Player) -> tuple[str, str, str]:
    s, w, p = (
        next(c for c in game.in_play(category) if c not in target.hand)
        for category in CATEGORY_ORDER
    )
    return s, w, p


def _group_calls(table: Party, since: int) -> list[ApiCall]:
    """The bot's calls that changed the group since call number `since`."""
    return [
        c
        for c in table.server.calls[since:]
        if c.method in POSTS + EDITS and str(c.params.get("chat_id")) == str(table.group.id)
    ]


async def test_a_day_end_is_one_post_and_the_index_edit(table: Party) -> None:
    """Two suggestions left to the GM (one refuted, one not; their deadlines as due as the
    day's), two silent players called for a replacement, a penalty: the thread gets one
    post and one edit of its index."""
    for setting in ("auto_no_refutation off", "replacement_after 1"):
        await table.bot.say(table.alice, table.group, f"/settings {setting}")
    game_id = await open_and_start(table)
    game = await state(table, game_id)
    bob, carol = _seat(game, table.bob), _seat(game, table.carol)
    assert game.day_ends_at is not None
    await table.bot.say(
        table.alice, table.group, f"/suggest @bob {_typed(naming(game, bob.hand[0]))}"
    )
    await table.bot.say(
        table.dave, table.group, f"/suggest @carol {_typed(_none_held(game, carol))}"
    )
    # A pause writes the deadlines anew: the answers' rows then come before the day's.
    await table.bot.say(table.alice, table.group, "/pause")
    await table.bot.advance(timedelta(minutes=5))
    await table.bot.say(table.alice, table.group, "/resume")
    game = await state(table, game_id)
    assert game.day_ends_at is not None
    await table.bot.advance(game.day_ends_at - table.bot.clock.now() - timedelta(seconds=1))
    since = len(table.server.calls)
    posts_before = len(bot_messages(table.group))
    private_before = {p.id: len(p.private_messages()) for p in table.players}

    await table.bot.advance(timedelta(seconds=2))  # Bob and Carol never answered

    calls = _group_calls(table, since)
    posts = [c for c in calls if c.method in POSTS]
    assert len(posts) <= 2, [c.params.get("text") for c in posts]
    assert len(calls) <= 2, [(c.method, c.params.get("text")) for c in calls]
    assert [c.method for c in calls] == ["sendMessage", "editMessageText"]
    assert calls[1].params["text"].startswith("📌 <b>Game index</b>")
    (post,) = bot_messages(table.group)[posts_before:]
    lines = post.text.splitlines()
    assert lines[:3] == [
        "🌙 Day 1 is over.",
        "✅ The GM refuted @alice's suggestion 1 for @bob.",
        "❌ The GM answers for @carol: no refutation of @dave's suggestion 1.",
    ]
    assert "📋 The day in short" in lines
    assert "@bob: 0 of 3 suggestions" in lines  # the penalty is the new day's line
    assert any(x.startswith("☀️ Day 2 begins. It ends ") for x in lines)
    assert "@bob has 1 suggestion fewer today for a missed answer." in lines
    assert "@carol has 1 suggestion fewer today for a missed answer." in lines
    assert lines[-2:] == [
        "🪑 @bob has made no move for 1 day. A replacement is wanted: an admin can hand the"
        " seat over with /replace.",
        "🪑 @carol has made no move for 1 day. A replacement is wanted: an admin can hand the"
        " seat over with /replace.",
    ]
    labels = [[text for text, _ in row] for row in post.buttons]
    assert labels == [["🪑 Find a replacement for Bob"], ["🪑 Find a replacement for Carol"]]

    # The private side is as before: the card shown to Alice, Bob told of his missed answer,
    # both prodded.
    said = {
        p.id: [m.text for m in p.private_messages()[private_before[p.id] :]] for p in table.players
    }
    assert any("The GM shows you" in m for m in said[table.alice.id])
    assert any("You did not answer suggestion 1" in m for m in said[table.bob.id])
    assert any("no move for 1 whole day" in m for m in said[table.bob.id])
    assert any("no move for 1 whole day" in m for m in said[table.carol.id])

    # Each button is for its own seat.
    await table.bot.press(table.alice, post, "🪑 Find a replacement for Carol")
    how = bot_messages(table.group)[-1].text
    assert how.startswith("@alice: to hand @carol's seat to someone, send /replace")
    print_views("a day's end", [table.group], table.players)


async def test_a_day_end_while_the_window_is_open_is_one_post_too(table: Party) -> None:
    """No day opens (the accusation window has less than half a day to run): the day's own
    end post says the GM's answer, the digest and the wait; the index is not edited."""
    await table.bot.say(table.alice, table.group, "/settings accusation_window 30h")
    game_id = await open_and_start(table)
    game = await state(table, game_id)
    assert game.day_ends_at is not None and game.envelope is not None
    bob = _seat(game, table.bob)
    await table.bot.say(
        table.alice, table.group, f"/suggest @bob {_typed(naming(game, bob.hand[0]))}"
    )
    wrong = next(c for c in game.in_play(CATEGORY_ORDER[0]) if c != game.envelope[0])
    await compose_accusation(table, table.dave, (wrong, game.envelope[1], game.envelope[2]))
    assert (await state(table, game_id)).window_open
    since = len(table.server.calls)
    posts_before = len(bot_messages(table.group))

    await table.bot.advance(game.day_ends_at - table.bot.clock.now() + timedelta(seconds=1))

    assert [c.method for c in _group_calls(table, since)] == ["sendMessage"]
    (post,) = bot_messages(table.group)[posts_before:]
    lines = post.text.splitlines()
    assert lines[:2] == ["🌙 Day 1 is over.", "✅ The GM refuted @alice's suggestion 1 for @bob."]
    assert "@bob: 0 of 3 suggestions · 1 suggestion fewer next day" in lines
    assert lines[-1].startswith("No new day until the accusation window closes")
