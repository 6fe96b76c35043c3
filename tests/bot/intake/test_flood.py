"""One member floods a group while another group plays: the players wait no longer, the
flooded group gets a few posts, and the flooder one notice."""

from __future__ import annotations

import statistics
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.config import BotConfig
from fakebot import FakeGroup, FakeTelegram, FakeUser
from tests.support.harness import BotHarness, Clock, Party, bot_messages, database_url
from tests.support.play import card_name, naming, open_and_start, state

FLOOD_SETTINGS = (
    "flood_group_limit",
    "flood_private_limit",
    "flood_window_seconds",
    "flood_group_sustained_limit",
    "flood_long_window_seconds",
    "flood_cooldown_seconds",
    "refusal_edit_seconds",
)
NOTICE = "too many commands at once"


@pytest.fixture
async def guarded(server: FakeTelegram, tmp_path: Path) -> AsyncIterator[Party]:
    """The usual table, with the bot's default per-person limits and refusal edits on."""
    alice = server.add_user("Alice", username="alice")
    bob = server.add_user("Bob", username="bob")
    carol = server.add_user("Carol", username="carol")
    dave = server.add_user("Dave", username="dave")
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


async def _until(table: Party, condition: Callable[[], Any], began: float) -> float:
    await table.server.wait_for(condition, timeout=60)
    return time.perf_counter() - began


async def _move(
    table: Party, suggester: FakeUser, target: FakeUser, flood: Callable[[], None]
) -> list[float]:
    """A typed suggestion and the target's answer: seconds from each update to the last
    message it owes (the group post and the target's prompt; the suggester's card and
    the group's answer post)."""
    game_id = (await table.bot.services.store.game_for_chat(table.group.id, 0)).id  # type: ignore[union-attr]
    game = await state(table, game_id)
    seat = game.player_of(target.id)
    assert seat is not None
    held = seat.hand[0]
    typed = f"/suggest @{target.username} " + "; ".join(card_name(c) for c in naming(game, held))
    posts = len(bot_messages(table.group))
    prompts = len(target.private_messages())
    flood()
    began = time.perf_counter()
    suggester.send(table.group, typed)
    asked = await _until(
        table,
        lambda: (
            len(bot_messages(table.group)) > posts
            and any(m.buttons for m in target.private_messages()[prompts:])
        ),
        began,
    )
    prompt = next(m for m in target.private_messages()[prompts:] if m.buttons)
    posts = len(bot_messages(table.group))
    cards = len(suggester.private_messages())
    flood()
    began = time.perf_counter()
    await target.press(prompt, card_name(held), timeout=60)
    answered = await _until(
        table,
        lambda: (
            len(bot_messages(table.group)) > posts
            and any("shows you" in m.text for m in suggester.private_messages()[cards:])
        ),
        began,
    )
    return [asked, answered]


def _flooder(mallory: FakeUser, group: FakeGroup, commands: int, chunks: int) -> Callable[[], None]:
    """Each call sends the next share of `commands` commands (/pause and /status by turns)."""
    sent = 0
    share = -(-commands // chunks)

    def flood() -> None:
        nonlocal sent
        for _ in range(min(share, commands - sent)):
            mallory.send(group, "/pause" if sent % 2 == 0 else "/status")
            sent += 1

    return flood


@pytest.mark.slow
async def test_a_flood_in_one_group_does_not_slow_another_groups_game(guarded: Party) -> None:
    table = guarded
    mallory = table.server.add_user("Mallory", username="mallory")
    owner = table.server.add_user("Olga", username="olga")
    flooded = table.server.add_group(
        "Quiet corner", admins=[owner], members=[mallory], bot_admin=True
    )
    await open_and_start(table)
    quiet: list[float] = []
    for target in (table.carol, table.dave, table.alice):
        quiet += await _move(table, table.bob, target, lambda: None)
    await table.bot.settle()

    flood = _flooder(mallory, flooded, commands=200, chunks=6)
    flooded_moves: list[float] = []
    for target in (table.dave, table.alice, table.bob):
        flooded_moves += await _move(table, table.carol, target, flood)
    await table.bot.settle()

    print(
        f"\nmove latency, median of {len(quiet)}: "
        f"without a flood {statistics.median(quiet) * 1000:.0f} ms, "
        f"with 200 commands flooding another group {statistics.median(flooded_moves) * 1000:.0f} ms"
    )
    from_bot = bot_messages(flooded)
    print(f"posts in the flooded group: {len(from_bot)}")
    limit = BotConfig.model_fields["flood_group_limit"].default
    assert len(from_bot) <= limit + 1, [m.text for m in from_bot]
    notices = [m for m in from_bot + mallory.private_messages() if NOTICE in m.text]
    assert len(notices) == 1
    assert not table.server.calls_to("getChatMember")
    admin_lists = [
        c
        for c in table.server.calls_to("getChatAdministrators")
        if int(c.params["chat_id"]) == flooded.id
    ]
    assert len(admin_lists) == 1


async def test_a_persons_repeated_refusals_edit_one_reply(guarded: Party) -> None:
    table = guarded
    game_id = await open_and_start(table)
    game = await state(table, game_id)
    to_self = "/suggest @bob " + "; ".join(card_name(c) for c in naming(game, game.deck[0]))
    posts = len(bot_messages(table.group))
    edits_before = len(table.server.calls_to("editMessageText"))
    first = await table.bot.say(table.bob, table.group, to_self)
    reply = bot_messages(table.group)[-1]
    assert "to yourself" in reply.text
    assert reply.reply_to is not None and reply.reply_to.message_id == first.message_id
    for command in ("/pause", "/pause", "/resume"):
        await table.bot.say(table.bob, table.group, command)
    assert len(bot_messages(table.group)) == posts + 1, "no new post for the repeats"
    assert "Only a chat admin" in bot_messages(table.group)[-1].text  # the reply, edited
    edits = table.server.calls_to("editMessageText")[edits_before:]
    assert [int(c.params["message_id"]) for c in edits] == [reply.message_id], (
        "one edit: the same refusal again changes nothing"
    )
    # Another person's refusal is a reply of its own.
    await table.bot.say(table.carol, table.group, "/pause")
    assert len(bot_messages(table.group)) == posts + 2
    assert (await state(table, game_id)).paused_at is None


async def test_a_flooder_is_told_once_privately_then_costs_nothing(guarded: Party) -> None:
    """Refusals and read-only commands count; during the cooldown the read-only ones cost
    nothing, a refused press is answered with no text, and a game action still plays.

    Changed with issue 23: Trent used to press Join and Leave by turns, accepted lobby
    actions that now never count; he now presses Leave while not in the lobby (a refusal).
    A dropped press used to go unanswered (the spinner turned on); it is answered now.
    """
    table = guarded
    mallory = table.server.add_user("Mallory", username="mallory")
    trent = table.server.add_user("Trent", username="trent")
    table.group.add_member(mallory, announce=False)
    table.group.add_member(trent, announce=False)
    mallory.start_bot()
    await table.bot.settle()
    await table.bot.say(table.alice, table.group, "/newgame")
    lobby = bot_messages(table.group)[-1]
    posts = len(bot_messages(table.group))

    for _ in range(6):  # the sixth is one too many
        mallory.send(table.group, "/status")
    await table.bot.settle()
    assert len(bot_messages(table.group)) == posts + 5
    notice = mallory.private_messages()[-1]
    assert "Too many commands at once in “Cluedo club”" in notice.text
    assert "5 minutes" in notice.text

    # Trent presses Leave while not in the lobby: the sixth refusal is answered with the notice.
    answers = [await trent.press(lobby, "Leave", timeout=5) for _ in range(6)]
    assert all(a.answered for a in answers)
    assert all("Too many" not in (a.text or "") for a in answers[:5])
    assert "Too many presses at once" in (answers[-1].text or "")

    # From now on their read-only commands cost no API call and no database write; a
    # refused press costs its (empty) answer only.
    await table.bot.settle()
    calls = len([c for c in table.server.calls if c.method != "getUpdates"])
    rows = await table.bot.services.store.outbox.counts()
    for _ in range(50):
        mallory.send(table.group, "/status")
    ignored = await trent.press(lobby, "Leave", timeout=5)
    await table.bot.settle()
    assert ignored.answered and not ignored.text, "the spinner stops, nothing is said"
    spent = [c.method for c in table.server.calls if c.method != "getUpdates"][calls:]
    assert spent == ["answerCallbackQuery"]
    assert await table.bot.services.store.outbox.counts() == rows
    assert len(bot_messages(table.group)) == posts + 5
    assert sum(NOTICE in m.text for m in bot_messages(table.group)) == 0

    # A game action in the cooldown is played: Trent joins, and the lobby shows him.
    joined = await trent.press(lobby, "Join", timeout=5)
    await table.bot.settle()
    assert joined.answered
    ref = await table.bot.services.store.game_for_chat(table.group.id, 0)
    assert ref is not None
    assert (await state(table, ref.id)).in_lobby(trent.id)
    # Everybody else is heard as before.
    before = len(bot_messages(table.group))
    await table.bot.say(table.bob, table.group, "/status")
    assert len(bot_messages(table.group)) == before + 1


async def test_a_repeated_refusal_far_up_the_thread_is_a_new_reply(guarded: Party) -> None:
    """An edit of a reply that has scrolled away goes unseen: after five other messages the
    refusal is a reply of its own, and the next one edits that."""
    table = guarded
    game_id = await open_and_start(table)
    game = await state(table, game_id)
    to_self = "/suggest @bob " + "; ".join(card_name(c) for c in naming(game, game.deck[0]))
    first = await table.bot.say(table.bob, table.group, to_self)
    reply = bot_messages(table.group)[-1]
    assert "to yourself" in reply.text
    assert reply.reply_to is not None and reply.reply_to.message_id == first.message_id
    for n in range(5):
        table.carol.send(table.group, f"what a lovely evening for a murder ({n})")
    await table.bot.settle()
    edits = len(table.server.calls_to("editMessageText"))
    again = await table.bot.say(table.bob, table.group, "/pause")
    anew = bot_messages(table.group)[-1]
    assert anew.message_id != reply.message_id, "a new reply, not an edit far up"
    assert anew.reply_to is not None and anew.reply_to.message_id == again.message_id
    assert len(table.server.calls_to("editMessageText")) == edits
    await table.bot.say(table.bob, table.group, to_self)
    edited = [int(c.params["message_id"]) for c in table.server.calls_to("editMessageText")]
    assert edited[edits:] == [anew.message_id], "the near one is edited"
    assert "to yourself" in bot_messages(table.group)[-1].text
