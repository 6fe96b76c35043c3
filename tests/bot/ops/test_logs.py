"""Logs keep no secret: the bot token and message bodies (hands, shown cards, buttons) are
removed from every record at every level by the filter `whodunit run` installs."""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Iterator
from contextlib import contextmanager

import httpx

from bot.logs import HIDDEN, install
from tests.support.harness import TOKEN, Party
from tests.support.play import card_name, naming, open_and_start, state


def named(names: set[str], text: str) -> set[str]:
    """The names that appear in `text` as whole words."""
    return {n for n in names if re.search(rf"(?<!\w){re.escape(n)}(?!\w)", text)}


@contextmanager
def captured_at_debug() -> Iterator[tuple[io.StringIO, io.StringIO]]:
    """Everything logged, as it would be without the filter and with it."""
    raw, clean = io.StringIO(), io.StringIO()
    unfiltered, filtered = logging.StreamHandler(raw), logging.StreamHandler(clean)
    install(TOKEN, [filtered])
    root = logging.getLogger()
    level = root.level
    root.setLevel(logging.DEBUG)
    root.addHandler(unfiltered)  # first: it sees each record before the filter changes it
    root.addHandler(filtered)
    try:
        yield raw, clean
    finally:
        root.removeHandler(filtered)
        root.removeHandler(unfiltered)
        root.setLevel(level)


async def test_a_game_at_debug_logs_no_token_hand_or_shown_card(table: Party) -> None:
    with captured_at_debug() as (raw, clean):
        game = await state(table, await open_and_start(table))
        carol = game.player_of(table.carol.id)
        assert carol is not None
        named_cards = "; ".join(card_name(c) for c in naming(game, carol.hand[0]))
        await table.bot.say(table.bob, table.group, f"/suggest @carol {named_cards}")
        prompt = next(m for m in table.carol.private_messages() if m.buttons)
        await table.bot.press(table.carol, prompt, prompt.buttons[0][0][0])
        assert any("shows you" in m.text for m in table.bob.private_messages())
    secret = TOKEN.partition(":")[2]
    hands = {card_name(c) for p in game.players for c in p.hand}
    assert game.envelope is not None
    envelope = {card_name(c) for c in game.envelope}
    # python-telegram-bot logged each call's answer at DEBUG (the bodies the filter cut: a
    # hand is in the private messages' bodies); the filter on URLs is tested below.
    assert "Call to Bot API endpoint `sendMessage` finished with return value" in raw.getvalue()
    log = clean.getvalue()
    assert "Calling Bot API endpoint `sendMessage` with parameters `{chat_id, text" in log
    assert secret not in log and TOKEN not in log
    assert named(hands | envelope, log) == set()
    for person in table.players:  # nothing anyone was sent privately is in the log
        assert not [m.text for m in person.private_messages() if m.text in log]


def test_the_token_is_cut_from_urls_arguments_and_tracebacks() -> None:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logging.Formatter("%(message)s"))
    install(TOKEN, [handler])
    log = logging.getLogger("test.logs")
    log.addHandler(handler)
    log.setLevel(logging.DEBUG)
    try:
        url = httpx.URL(f"https://api.telegram.org/bot{TOKEN}/getUpdates")
        log.info("HTTP Request: %s %s", "POST", url)
        log.debug("named %(url)s", {"url": str(url)})
        try:
            raise ValueError(f"no route to {url}")
        except ValueError:
            log.exception("request failed")
        log.error({"text": "Your cards: Rope", "chat_id": 5})
    finally:
        log.removeHandler(handler)
    text = stream.getvalue()
    assert TOKEN.partition(":")[2] not in text
    assert text.count(HIDDEN) >= 3 and "ValueError: no route to" in text
    assert "{text, chat_id}" in text and "Rope" not in text
