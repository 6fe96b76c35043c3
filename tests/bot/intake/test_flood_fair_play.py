"""The flood guard never meets a fair player (issue 23), with the bot's default limits.

Each test plays at human speed on the test's clock (the flood limits count on it) and
prints what each person saw (`pytest -s`): a lobby set up by its admin, a player's join,
suggestions and /status, a classic table turn by buttons, and a real flood beside another
group's game.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import pytest

from bot.config import BotConfig
from engine.state import Phase
from fakebot import FakeGroup, FakeMessage, FakeTelegram, FakeUser
from tests.support.harness import BotHarness, Clock, Party, bot_messages, database_url
from tests.support.play import card_name, lobby_post, naming, open_and_start, state
from tests.support.table_play import TablePlayer, fix_seed, open_classic
from tests.support.views import Toasts, print_views

FLOOD_SETTINGS = (
    "flood_group_limit",
    "flood_private_limit",
    "flood_window_seconds",
    "flood_group_sustained_limit",
    "flood_long_window_seconds",
    "flood_cooldown_seconds",
    "refusal_edit_seconds",
)
FLOOD_MARKS = ("✋", "Too many", "too many", "Слишком много", "слишком много")


@pytest.fixture
async def guarded(server: FakeTelegram, tmp_path: Path) -> AsyncIterator[Party]:
    """The usual four people and group, with the bot's default flood limits."""
    alice = server.add_user("Alice", username="alice", language_code="en")
    bob = server.add_user("Bob", username="bob", language_code="en")
    carol = server.add_user("Carol", username="carol", language_code="en")
    dave = server.add_user("Dave", username="dave", language_code="en")
    group = server.add_group(
        "Cluedo club", admins=[alice], members=[bob, carol, dave], bot_admin=True
    )
    defaults = {name: BotConfig.model_fields[name].default for name in FLOOD_SETTINGS}
    harness = BotHarness(server, database_url(tmp_path), Clock(), settings=defaults)
    await harness.start()
    try:
        yield Party(server, harness, group, alice, bob, carol, dave)
    finally:
        await harness.stop()


def flood_words(texts: list[str]) -> list[str]:
    """The texts that speak of a flood."""
    return [text for text in texts if any(mark in text for mark in FLOOD_MARKS)]


def everything_seen(table: Party, toasts: Toasts, groups: list[FakeGroup]) -> list[str]:
    texts = [m.text for g in groups for m in bot_messages(g)]
    for person in table.players:
        texts += [m.text for m in person.private_messages()]
        texts += toasts.of(person)
    return texts


async def pause(table: Party, seconds: float) -> None:
    """A person's pause between two actions, on the test's clock."""
    await table.bot.advance(timedelta(seconds=seconds))


async def test_an_admin_sets_up_a_lobby_in_ten_seconds_and_the_game_starts(
    guarded: Party,
) -> None:
    """/language ru, /newgame, three /settings and Start within 10 s: no notice, a game."""
    table, toasts = guarded, Toasts()
    for person in table.players:
        person.start_bot()
    await table.bot.settle()
    began = table.bot.clock.now()
    alice = table.alice
    await table.bot.say(alice, table.group, "/language ru")
    await pause(table, 1.5)
    await table.bot.say(alice, table.group, "/newgame")
    lobby = lobby_post(table)
    join = lobby.buttons[0][0][0]
    for person in (table.bob, table.carol):  # their own presses, between the admin's lines
        toasts.add(person, join, await table.bot.press(person, lobby_post(table), join))
    for line in (
        "/settings suggestions_per_day 5",
        "/settings max_per_target_per_day 2",
        "/settings missed_answer_penalty 2",
    ):
        await pause(table, 1.5)
        await table.bot.say(alice, table.group, line)
    await pause(table, 1.5)
    start = lobby_post(table).buttons[1][0][0]
    toasts.add(alice, start, await table.bot.press(alice, lobby_post(table), start))
    spent = (table.bot.clock.now() - began).total_seconds()
    print_views("an admin sets up a lobby", [table.group], table.players, toasts)

    assert spent <= 10
    ref = await table.bot.services.store.game_for_chat(table.group.id, 0)
    assert ref is not None
    game = await state(table, ref.id)
    assert game.phase is Phase.RUNNING
    assert (game.settings.suggestions_per_day, game.settings.max_per_target_per_day) == (5, 2)
    assert game.settings.missed_answer_penalty == 2
    assert not flood_words(everything_seen(table, toasts, [table.group]))


async def test_a_player_joins_suggests_three_times_and_asks_the_status_in_fifteen_seconds(
    guarded: Party,
) -> None:
    """Join, three typed suggestions and /status within 15 s: every one is answered."""
    table, toasts = guarded, Toasts()
    for person in table.players:
        person.start_bot()
    await table.bot.settle()
    await table.bot.say(table.alice, table.group, "/newgame")
    began = table.bot.clock.now()
    bob = table.bob
    toasts.add(bob, "Join", await table.bot.press(bob, lobby_post(table), "Join"))
    for person in (table.carol, table.dave):
        await table.bot.press(person, lobby_post(table), "Join")
    await table.bot.press(table.alice, lobby_post(table), "Start the game")
    ref = await table.bot.services.store.game_for_chat(table.group.id, 0)
    assert ref is not None
    for target in (table.carol, table.dave, table.alice):
        await pause(table, 2.5)
        game = await state(table, ref.id)
        seat = game.player_of(target.id)
        assert seat is not None
        cards = naming(game, seat.hand[0])
        posts = len(bot_messages(table.group))
        typed = f"/suggest @{target.username} " + "; ".join(card_name(c) for c in cards)
        await table.bot.say(bob, table.group, typed)
        assert len(bot_messages(table.group)) > posts, f"no answer to {typed}"
    await pause(table, 2.5)
    asked = await table.bot.say(bob, table.group, "/status")
    spent = (table.bot.clock.now() - began).total_seconds()
    print_views("a player joins and suggests", [table.group], table.players, toasts)

    assert spent <= 15
    assert toasts.of(bob) and "joined" in toasts.of(bob)[0]
    game = await state(table, ref.id)
    assert [s.suggester for s in game.suggestions] == [game.player_of(bob.id).seat] * 3  # type: ignore[union-attr]
    status = [m for m in bot_messages(table.group) if m.message_id > asked.message_id]
    assert status, "/status is answered"
    assert not flood_words(everything_seen(table, toasts, [table.group]))


class TimedPlayer(TablePlayer):
    """Plays by buttons at a person's pace (1.5 s a press) and keeps every toast."""

    toasts: Toasts
    presses: int = 0

    async def press(self, who: FakeUser, message: FakeMessage, text: str) -> None:
        answer = await self.table.bot.press(who, message, text)
        self.toasts.add(who, text, answer)
        self.presses += 1
        assert answer.answered, f"{who.first_name}'s press on {text!r} was not answered"
        await pause(self.table, 1.5)


async def test_a_classic_turn_by_buttons_in_fifteen_seconds_is_played(guarded: Party) -> None:
    """Whole table turns (roll, a room, suggest, suspect, weapon, the refuter's card, end
    turn) at human speed: every press is answered, no notice, the turns go round."""
    table, toasts = guarded, Toasts()
    fix_seed(table, 7)
    people = [table.alice, table.bob, table.carol]
    game_id = await open_classic(table, people)
    player = TimedPlayer(table, game_id, people)
    player.toasts = toasts
    for _ in range(8):  # turns until one has had a suggestion
        before = await player.game()
        assert before.table is not None
        began, presses = table.bot.clock.now(), player.presses
        await player.turn()
        spent = (table.bot.clock.now() - began).total_seconds()
        after = await player.game()
        assert after.table is not None
        assert after.table.turn == before.table.turn + 1, "the turn is over"
        assert spent <= 15, f"{player.presses - presses} presses took {spent} s"
        if player.seen.suggestions:
            break
    print_views("classic turns by buttons", [table.group], people, toasts)

    assert player.seen.suggestions >= 1, "a turn with a suggestion was played"
    assert not flood_words(everything_seen(table, toasts, [table.group]))


async def _move(table: Party, suggester: FakeUser, target: FakeUser) -> list[float]:
    """A typed suggestion and the target's answer: real seconds from each update to the
    messages it owes (the group post and the prompt; the suggester's card)."""
    ref = await table.bot.services.store.game_for_chat(table.group.id, 0)
    assert ref is not None
    game = await state(table, ref.id)
    seat = game.player_of(target.id)
    assert seat is not None
    held = seat.hand[0]
    typed = f"/suggest @{target.username} " + "; ".join(card_name(c) for c in naming(game, held))
    prompts = len(target.private_messages())
    began = time.perf_counter()
    suggester.send(table.group, typed)
    await table.server.wait_for(
        lambda: any(m.buttons for m in target.private_messages()[prompts:]), timeout=60
    )
    asked = time.perf_counter() - began
    prompt = next(m for m in target.private_messages()[prompts:] if m.buttons)
    cards = len(suggester.private_messages())
    began = time.perf_counter()
    await target.press(prompt, card_name(held), timeout=60)
    await table.server.wait_for(
        lambda: any("shows you" in m.text for m in suggester.private_messages()[cards:]),
        timeout=60,
    )
    return [asked, time.perf_counter() - began]


async def test_a_flood_of_status_gets_one_notice_while_another_group_plays_on(
    guarded: Party,
) -> None:
    """200 /status in 60 s from one member: a handful of replies and one notice; the other
    group's moves meanwhile are all answered, about as fast as with no flood."""
    table = guarded
    mallory = table.server.add_user("Mallory", username="mallory")
    owner = table.server.add_user("Olga", username="olga")
    flooded = table.server.add_group(
        "Quiet corner", admins=[owner], members=[mallory], bot_admin=True
    )
    await open_and_start(table)
    await table.bot.settle()
    quiet: list[float] = []
    for target in (table.carol, table.dave, table.alice):
        quiet += await _move(table, table.bob, target)
    await table.bot.settle()

    flooding: list[float] = []
    sent = 0
    for share, target in enumerate((table.dave, table.alice, table.bob)):
        # 200 /status in three shares, each followed by a move of the other group, 20 s
        # apart on the test's clock: 60 s in all.
        for _ in range((200 * (share + 1)) // 3 - sent):
            mallory.send(flooded, "/status")
            sent += 1
        flooding += await _move(table, table.carol, target)
        await table.bot.settle()  # the share is handled at its moment
        table.bot.clock.advance(timedelta(seconds=20))
    await table.bot.settle()
    print_views("a flood beside a game", [flooded], [mallory], None)

    replies = [m for m in bot_messages(flooded) if "✋" not in m.text]
    notices = [m for m in bot_messages(flooded) + mallory.private_messages() if "✋" in m.text]
    limit = BotConfig.model_fields["flood_group_limit"].default
    print(
        f"\n{sent} /status: {len(replies)} replies, {len(notices)} notice; other group's move "
        f"latency, median of {len(quiet)}: without the flood {statistics.median(quiet) * 1000:.0f}"
        f" ms, with it {statistics.median(flooding) * 1000:.0f} ms"
    )
    assert sent == 200
    assert len(notices) == 1
    assert 1 <= len(replies) <= limit
    assert len(flooding) == 6, "every move of the other group was answered"
    ref = await table.bot.services.store.game_for_chat(table.group.id, 0)
    assert ref is not None
    assert len((await state(table, ref.id)).suggestions) == 6
    # Generous: a flood elsewhere may not slow the game more than a few times over.
    assert statistics.median(flooding) <= 5 * statistics.median(quiet) + 0.5
