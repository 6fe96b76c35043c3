"""The bot's own long polling: an update is confirmed only once handled, and an update that
Telegram delivers again after a crash (handled, not yet confirmed) changes nothing."""

from __future__ import annotations

import asyncio
import copy
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from telegram import Update
from telegram.ext import TypeHandler

from bot.intake import ALLOWED_UPDATES, Intake
from storage.service import Outcome
from tests.support.harness import BotHarness, Clock, Party, bot_messages, database_url
from tests.support.play import card_name, naming, open_and_start, state


def _delivered(table: Party, text: str) -> dict[str, Any]:
    """The update the fake gave the bot for a message with this text."""
    for call in table.server.calls_to("getUpdates"):
        for update in call.response.get("result", []):
            if (update.get("message") or {}).get("text") == text:
                return copy.deepcopy(update)
    raise AssertionError(f"no update with {text!r}")


async def _restart_with_redelivery(
    table: Party, tmp_path: Path, update: dict[str, Any]
) -> BotHarness:
    """Stop the bot, give Telegram's queue the update again, start a new bot on the same data."""
    await table.bot.stop()
    table.server.world.updates.insert(0, update)
    again = BotHarness(table.server, database_url(tmp_path), Clock(table.bot.clock.now()))
    await again.start()
    table.bot = again
    await again.settle()
    return again


@pytest.fixture(autouse=True)
async def _stop_the_restarted_bot(table: Party) -> AsyncIterator[None]:
    yield
    await table.bot.stop()


async def _suggest(table: Party) -> str:
    game_id = await open_and_start(table)
    game = await state(table, game_id)
    carol = game.player_of(table.carol.id)
    assert carol is not None
    text = "/suggest @carol " + "; ".join(card_name(c) for c in naming(game, carol.hand[0]))
    await table.bot.say(table.bob, table.group, text)
    return text


def _suggestion_posts(table: Party) -> list[str]:
    return [m.text for m in bot_messages(table.group) if "Suggestion 1 for @carol" in m.text]


async def test_a_suggestion_delivered_again_after_a_restart_is_made_once(
    table: Party, tmp_path: Path
) -> None:
    text = await _suggest(table)
    assert len(_suggestion_posts(table)) == 1
    again = await _restart_with_redelivery(table, tmp_path, _delivered(table, text))
    ref = await again.services.store.game_for_chat(table.group.id, 0)
    assert ref is not None
    assert len((await again.services.store.load(ref.id)).suggestions) == 1
    assert len(_suggestion_posts(table)) == 1
    prompts = [m for m in table.carol.private_messages() if "Suggestion 1" in m.text]
    assert len(prompts) == 1, "the answer prompt came twice"
    assert table.server.world.updates == [], "the repeated update was not confirmed"


async def test_a_repeat_that_reaches_the_handler_writes_nothing(
    table: Party, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without the early skip, the handler runs again; the game command is recognised."""

    async def nothing_handled(self: Intake, update_ids: list[int]) -> set[int]:
        return set()

    text = await _suggest(table)
    monkeypatch.setattr(Intake, "_already_handled", nothing_handled)
    again = await _restart_with_redelivery(table, tmp_path, _delivered(table, text))
    ref = await again.services.store.game_for_chat(table.group.id, 0)
    assert ref is not None
    assert len((await again.services.store.load(ref.id)).suggestions) == 1
    assert len(_suggestion_posts(table)) == 1
    assert len([m for m in table.carol.private_messages() if "Suggestion 1" in m.text]) == 1


async def test_an_update_being_handled_is_not_confirmed(table: Party) -> None:
    """Until its handling finishes, Telegram keeps the update (a kill would not lose it)."""
    gate = asyncio.Event()

    async def slow(update: Update, context: object) -> None:
        if update.message is not None and update.message.text == "/rules slowly":
            await gate.wait()

    table.bot.app.add_handler(TypeHandler(Update, slow), group=-50)
    table.alice.send(table.group, "/rules slowly")
    await asyncio.sleep(2.5)  # several polls of one second each
    assert [u["message"]["text"] for u in table.server.world.updates] == ["/rules slowly"]
    polls = table.server.calls_to("getUpdates")
    assert len(polls) >= 3
    assert polls[-1].params.get("allowed_updates") == list(ALLOWED_UPDATES)
    gate.set()
    await table.bot.settle()
    assert table.server.world.updates == []
    assert any("The rules" in m.text for m in bot_messages(table.group))


async def test_an_update_in_flight_is_fetched_once(table: Party) -> None:
    """Telegram answers a poll at once, with the same update, while that update is
    unconfirmed: the bot polls again once one has finished, so each update comes once
    (each of these takes 0.3 s to handle)."""

    async def slow(update: Update, context: object) -> None:
        await asyncio.sleep(0.3)

    table.bot.app.add_handler(TypeHandler(Update, slow), group=-50)
    await table.bot.settle()
    before = len(table.server.calls_to("getUpdates"))
    for _ in range(4):
        await table.bot.say(table.alice, table.group, "/rules")
    polls = table.server.calls_to("getUpdates")[before:]
    seen: set[int] = set()
    again = 0
    for call in polls:
        ids = {u["update_id"] for u in call.response.get("result", [])}
        again += bool(ids) and ids <= seen
        seen |= ids
    assert len(seen) == 4
    assert again == 0, f"{again} polls brought only updates already being handled"
    assert sum("The rules" in m.text for m in bot_messages(table.group)) == 4


@pytest.mark.parametrize(
    ("code", "description"),
    [
        (502, "Bad Gateway"),
        (500, None),
        (409, "Conflict: terminated by other getUpdates request; make sure that only one bot"),
    ],
)
async def test_get_updates_failures_back_off_and_polling_goes_on(
    table: Party, caplog: pytest.LogCaptureFixture, code: int, description: str | None
) -> None:
    table.server.fail_next("getUpdates", code, times=2, description=description)
    table.alice.send(table.group, "/rules")
    await table.bot.settle(timeout=20)
    assert any("The rules" in m.text for m in bot_messages(table.group))
    failed = [c for c in table.server.calls_to("getUpdates") if c.status == code]
    assert len(failed) == 2
    if code == 409:
        assert "only one bot instance may run" in caplog.text
    else:
        assert "getUpdates failed" in caplog.text


async def test_an_answer_press_delivered_again_is_taken_once(table: Party, tmp_path: Path) -> None:
    await _suggest(table)
    prompt = next(m for m in table.carol.private_messages() if m.buttons)
    await table.bot.press(table.carol, prompt, prompt.buttons[0][0][0])
    assert len([m for m in table.bob.private_messages() if "shows you" in m.text]) == 1
    pressed = next(
        copy.deepcopy(u)
        for call in table.server.calls_to("getUpdates")
        for u in call.response.get("result", [])
        if "callback_query" in u
        and u["callback_query"]["message"]["message_id"] == prompt.message_id
    )
    again = await _restart_with_redelivery(table, tmp_path, pressed)
    ref = await again.services.store.game_for_chat(table.group.id, 0)
    assert ref is not None
    events = await again.services.store.events(ref.id)
    assert sum(type(e).__name__ == "SuggestionRefuted" for e in events) == 1
    assert len([m for m in table.bob.private_messages() if "shows you" in m.text]) == 1
    assert len([m for m in bot_messages(table.group) if "refuted @" in m.text]) == 1


async def test_shutdown_lets_an_update_in_flight_finish_and_confirms_it(table: Party) -> None:
    gate = asyncio.Event()

    async def slow(update: Update, context: object) -> None:
        if update.message is not None and update.message.text == "/rules slowly":
            await gate.wait()

    table.bot.app.add_handler(TypeHandler(Update, slow), group=-50)
    table.alice.send(table.group, "/rules slowly")
    await asyncio.sleep(1.5)
    assert table.bot.in_flight == 1
    stopping = asyncio.create_task(table.bot.stop())
    await asyncio.sleep(0.5)
    assert not stopping.done(), "the bot stopped before its update was handled"
    gate.set()
    await stopping
    assert table.bot.in_flight == 0
    assert table.server.world.updates == [], "the handled update was not confirmed"


async def test_jobs_scheduled_while_an_update_is_handled_do_not_run_as_part_of_it(
    table: Party, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A command's new deadlines schedule jobs; those belong to no update, or a deadline
    they run would be recorded as a step of the update's (and skipped when it comes again)."""
    seen: list[object] = []
    ran = asyncio.Event()

    async def deadline_job(context: object) -> None:
        seen.append(getattr(context, "update_mark", "not the bot's context"))
        ran.set()

    game_id = await open_and_start(table)
    game = await state(table, game_id)
    monkeypatch.setattr(table.bot.scheduler, "_deadline_job", deadline_job)
    table.bot.clock.moment = datetime.now(UTC)  # the job runs on real time
    soon = table.bot.clock.moment + timedelta(seconds=0.3)
    replan = table.bot.services.deadlines_changed
    assert replan is not None
    replan(Outcome(game_id, [], game, 10_000, deadlines={"day:99": soon}))  # a moved deadline
    await asyncio.wait_for(ran.wait(), 10)
    assert seen == [None]


async def test_an_update_cut_off_at_shutdown_is_not_confirmed(table: Party) -> None:
    """Shutdown waits only so long; an update still unfinished then stays with Telegram."""

    async def stuck(update: Update, context: object) -> None:
        if update.message is not None and update.message.text == "/rules forever":
            await asyncio.Event().wait()

    table.bot.app.add_handler(TypeHandler(Update, stuck), group=-50)
    table.bot.intake.drain_seconds = 0.5
    table.alice.send(table.group, "/rules forever")
    await asyncio.sleep(1.5)
    await table.bot.stop()
    assert [u["message"]["text"] for u in table.server.world.updates] == ["/rules forever"]
