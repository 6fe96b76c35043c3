"""One INFO line per handled update (update id, game, command, outcome, duration), as JSON
when asked; over a played game no log line at INFO names a card."""

from __future__ import annotations

import io
import json
import logging
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from bot.logs import install, use_json
from tests.support.harness import TOKEN, Party
from tests.support.play import card_name, naming, open_and_start, state

FIELDS = {"update_id", "game_id", "command", "outcome", "duration_ms"}


@contextmanager
def json_log_at_info() -> Iterator[io.StringIO]:
    """The root logger's INFO output as `whodunit run` writes it with
    WHODUNIT_LOG_FORMAT=json: the secrets filter, then the JSON formatter."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    use_json([handler])
    install(TOKEN, [handler])
    root = logging.getLogger()
    level = root.level
    root.setLevel(logging.INFO)
    root.addHandler(handler)
    try:
        yield stream
    finally:
        root.removeHandler(handler)
        root.setLevel(level)


def lines(stream: io.StringIO) -> list[dict[str, Any]]:
    return [json.loads(line) for line in stream.getvalue().splitlines()]


async def test_each_update_has_one_json_line_and_no_card_is_named(table: Party) -> None:
    with json_log_at_info() as stream:
        game_id = await open_and_start(table)
        game = await state(table, game_id)
        carol = game.player_of(table.carol.id)
        assert carol is not None
        cards = "; ".join(card_name(c) for c in naming(game, carol.hand[0]))
        await table.bot.say(table.bob, table.group, f"/suggest @carol {cards}")
        await table.bot.say(table.bob, table.group, f"/suggest @bob {cards}")  # refused
        prompt = next(m for m in table.carol.private_messages() if m.buttons)
        await table.bot.press(table.carol, prompt, prompt.buttons[0][0][0])
        await table.bot.say(table.dave, None, "/hand")
    entries = lines(stream)  # every line parses as JSON
    assert all({"time", "level", "logger", "message"} <= set(e) for e in entries)
    updates = [e for e in entries if e["logger"] == "whodunit.updates"]
    assert all(set(e) >= FIELDS and e["level"] == "INFO" for e in updates)
    assert all(isinstance(e["duration_ms"], float) and e["duration_ms"] >= 0 for e in updates)
    ids = [e["update_id"] for e in updates]
    assert len(ids) == len(set(ids)), "one line per update"

    suggestions = [e for e in updates if e["command"] == "/suggest"]
    assert [(e["game_id"], e["outcome"]) for e in suggestions] == [
        (game_id, "ok"),
        (game_id, "refused:cannot_target_self"),
    ]
    assert suggestions[0]["message"] == (
        f"update {suggestions[0]['update_id']} game {game_id} command /suggest outcome ok "
        f"{suggestions[0]['duration_ms']:.1f} ms"
    )
    refute = [e for e in updates if e["command"] == "button:a"]
    assert [(e["game_id"], e["outcome"]) for e in refute] == [(game_id, "ok")]
    assert any(e["command"] == "/newgame" and e["game_id"] == game_id for e in updates)
    assert any(e["command"] == "/hand" for e in updates)

    game = await state(table, game_id)
    assert game.envelope is not None
    secret = {card_name(c) for p in game.players for c in p.hand} | {
        card_name(c) for c in game.envelope
    }
    text = stream.getvalue()
    found = {n for n in secret if re.search(rf"(?<!\w){re.escape(n)}(?!\w)", text)}
    assert found == set()
    assert TOKEN not in text


async def test_a_failing_handler_logs_outcome_error(table: Party, monkeypatch: Any) -> None:
    async def broken(*args: Any) -> None:
        raise RuntimeError("boom")

    store = table.bot.services.store
    monkeypatch.setattr(store, "game_for_chat", broken)
    with json_log_at_info() as stream:
        await table.bot.say(table.alice, table.group, "/status")
    updates = [e for e in lines(stream) if e["logger"] == "whodunit.updates"]
    assert [(e["command"], e["outcome"]) for e in updates] == [("/status", "error")]
