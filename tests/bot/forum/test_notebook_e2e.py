"""Each player's notebook through the fake Bot API: a picture and its text version with the
right marks and reasons, in the reader's language; a player's own mark kept across a
restart; the "off" setting showing the hand alone; the story and the records at the end,
and in the winner's /me the day the notebook named the envelope against the accusation's."""

from __future__ import annotations

import asyncio
import io
import threading
from collections.abc import Sequence
from datetime import timedelta
from pathlib import Path

import pytest
from PIL import Image

from bot.notebook import keeper as keeper_module
from bot.notebook.sheet import Payload, sheet_of
from engine.events import Event
from engine.ids import Seat
from engine.state import Game
from fakebot import FakeMessage, FakeUser
from locales import t
from tests.support.catalogs import literal
from tests.support.harness import BotHarness, Clock, Party, bot_messages, database_url
from tests.support.play import card_name, compose_accusation, state


def _names(cards: tuple[str, ...] | list[str], language: str = "en") -> str:
    return ", ".join(card_name(c, language) for c in cards)


async def _suggest_the_envelope(table: Party, game_id: int) -> tuple[str, str, str]:
    """Bob asks Carol, Dave and Alice about the envelope's three: nobody can refute (the GM
    answers at once for each), so Bob's notebook proves all three are in the envelope."""
    game = await state(table, game_id)
    assert game.envelope is not None
    typed = "; ".join(card_name(c) for c in game.envelope)
    for target in ("carol", "dave", "alice"):
        await table.bot.say(table.bob, table.group, f"/suggest @{target} {typed}")
    return game.envelope


async def _open(table: Party, level: str) -> int:
    """A lobby that says which notebook help its game gives, joined by all and started."""
    for person in table.players:
        person.start_bot()
    await table.bot.say(table.alice, table.group, "/newgame")
    lobby = bot_messages(table.group)[-1]
    assert t("en", f"lobby.notebook_{level}") in lobby.text  # everyone plays under it
    for person in (table.bob, table.carol, table.dave):
        await table.bot.press(person, lobby, "Join")
    await table.bot.press(table.alice, lobby, "Start the game")
    ref = await table.bot.services.store.game_for_chat(table.group.id, 0)
    assert ref is not None
    return ref.id


async def _notebook(person: FakeUser, table: Party, text: str = "/notebook") -> FakeMessage:
    """The notebook the person asks for (worked out off the event loop: waited for)."""
    last = max((m.message_id for m in person.private_messages()), default=0)
    await table.bot.say(person, None, text)
    return await person.wait_private(lambda m: m.text.startswith(("📓", "🎲")), after=last)


async def test_the_notebook_proves_the_envelope_with_its_reasons_and_keeps_a_mark(
    table: Party, tmp_path: Path
) -> None:
    await table.bot.say(table.alice, table.group, "/settings notebook deductions")
    game_id = await _open(table, "deductions")
    envelope = await _suggest_the_envelope(table, game_id)
    game = await state(table, game_id)
    bob = game.players[game.player_of(table.bob.id).seat]  # type: ignore[union-attr]

    picture = await _notebook(table.bob, table)
    assert picture.photo is not None and picture.text.startswith(
        "📓 Cluedo club: @bob's notebook, day 1"
    )
    image = Image.open(io.BytesIO(picture.photo_bytes))
    assert image.format == "PNG" and len(picture.photo_bytes) < 200_000
    assert 600 <= image.width <= 1280

    await table.bot.press(table.bob, picture, t("en", "button.notebook_text"))
    # the text is worked out off the event loop: wait for it, however busy the machine
    text = (await table.bob.wait_private(lambda m: m.photo is None, after=picture)).text
    for card in bob.hand:  # his own cards: his
        assert f"• {card_name(card)}: {t('en', 'notebook.you')}" in text
    for card in envelope:  # proven in the envelope
        assert f"• {card_name(card)}: Envelope" in text
    # Why: nobody else could refute them, and they are not in Bob's own hand.
    reasons = "; ".join(
        [t("en", "notebook.why.hand")]
        + [
            f"@{who} could not refute {_names(envelope)} (day 1)"
            for who in ("carol", "dave", "alice")
        ]
    )
    proof = t("en", "notebook.in_envelope", cards=_names(sorted(envelope)))
    assert f"• {proof}: {reasons}." in text
    for person in (table.alice, table.carol, table.dave):  # nobody else got Bob's notebook
        assert not any("@bob's notebook" in m.text for m in person.private_messages())

    # Bob pencils a mark and a note on a card he cannot place; it survives a restart.
    open_card = next(c for c in game.deck if c not in bob.hand and c not in envelope)
    await table.bot.say(table.bob, None, f"/mark {card_name(open_card)} @dave maybe red ink")
    said = table.bob.private_messages()[-1].text
    assert said == f"🎲 Cluedo club\n✏️ Marked: {card_name(open_card)} / @dave: maybe — red ink."
    await table.bot.stop()
    again = BotHarness(table.server, database_url(tmp_path), Clock(table.bot.clock.now()))
    await again.start()
    table.bot = again
    text = (await _notebook(table.bob, table, "/notebook text")).text
    assert f"• {card_name(open_card)} / @dave: maybe — red ink" in text

    # A bad mark changes nothing and says why.
    await table.bot.say(table.bob, None, "/mark Excalibur @dave yes")
    assert table.bob.private_messages()[-1].text == "🎲 Cluedo club\n" + t(
        "en", "notebook.mark_unknown_card", typed="Excalibur"
    )

    # Bob accuses rightly; at the end the story names who could have named the envelope.
    await compose_accusation(table, table.bob, envelope)
    await table.bot.advance(timedelta(hours=24, seconds=1))
    story = await _wait_for(table, "The story of the game")
    assert "<b>Day 1</b>" in story.html or "Day 1" in story.text
    for who in ("carol", "dave", "alice"):
        assert f"@bob asked @{who} about {_names(envelope)}: @{who} had none of them." in story.text
    assert "⚖️ @bob accused " + _names(envelope) + ": right!" in story.text
    assert "• @bob: from day 1" in story.text
    assert "• @alice: never, from what they saw" in story.text

    await table.bot.say(table.carol, table.group, "/stats")
    records = bot_messages(table.group)[-1].text
    assert "1 game played: 1 won, 0 unsolved, 0 ended by an admin." in records
    assert "3 suggestions made in them." in records
    assert "1. @bob: 1 won of 1 game" in records
    assert "The quickest win: @bob, on day 1." in records

    # Noted in the background after the end, Bob's record says his notebook named the
    # envelope on the day he accused.
    ratings = table.bot.services.store.ratings
    for _ in range(200):
        if await ratings.moments(table.bob.id):
            break
        await asyncio.sleep(0.05)
    await table.bot.say(table.bob, None, "/me")
    profile = table.bob.private_messages()[-1]
    assert profile.photo is not None
    await table.bot.press(table.bob, profile, t("en", "button.me_text"))
    record = table.bob.private_messages()[-1].text
    assert "📓 Your notebook named the envelope: day 1 on average (1 game)" in record
    assert "🎯 You accused: day 1 on average (1 game)" in record


@pytest.mark.parametrize("refused", [None, 429, 500, "slow"])
async def test_a_notebook_that_takes_a_while_shows_the_bot_at_work(
    table: Party, monkeypatch: pytest.MonkeyPatch, refused: int | str | None
) -> None:
    """While a sheet is worked out (as at the forum's ten seats, a second or two), the
    player's chat shows "sending a photo…", once; a sheet kept ready shows nothing. When
    Telegram refuses the action (429, 500) or answers it late, the notebook comes all the
    same, as soon as it is ready."""
    gate = threading.Event()

    def held(game: Game, events: Sequence[Event], seat: Seat) -> Payload:
        gate.wait(10)
        return sheet_of(game, events, seat)

    monkeypatch.setattr(keeper_module, "sheet_of", held)
    await table.bot.say(table.alice, table.group, "/settings notebook odds")
    game_id = await _open(table, "odds")
    await _suggest_the_envelope(table, game_id)
    chat = table.bob.private_chat
    shown = len(chat.actions)
    last = max(m.message_id for m in table.bob.private_messages())

    action = [] if isinstance(refused, int) else ["upload_photo"]
    if isinstance(refused, int):
        table.server.fail_next("sendChatAction", refused)
    elif refused == "slow":
        table.server.delay_next("sendChatAction", 8)  # shown at once, answered 8 s late
    table.bob.send_private("/notebook")
    called = len(table.server.calls)
    await table.server.wait_for(
        lambda: any(c.method == "sendChatAction" for c in table.server.calls[called:])
    )
    assert chat.actions[shown:] == action
    assert not [m for m in table.bob.private_messages() if m.message_id > last]
    gate.set()
    picture = await table.bob.wait_private(lambda m: m.text.startswith("📓"), after=last)
    assert picture.photo is not None
    await table.bot.press(table.bob, picture, t("en", "button.notebook_text"))
    await table.bob.wait_private(lambda m: m.photo is None, after=picture)
    await table.bot.say(table.bob, None, "/notebook")
    assert chat.actions[shown:] == action  # the kept sheet came at once, twice
    for person in (table.alice, table.carol, table.dave):
        assert person.private_chat.actions == []
    assert table.group.actions == []


async def _wait_for(table: Party, words: str) -> FakeMessage:
    """The story is worked out in the background after the end: wait for its post."""
    for _ in range(200):
        await table.bot.settle()
        found = [m for m in bot_messages(table.group) if words in m.text]
        if found:
            return found[-1]
        await asyncio.sleep(0.05)
    raise AssertionError(f"no post with {words!r}")


async def test_a_russian_reader_and_the_off_setting(table: Party) -> None:
    table.carol.language_code = "ru"
    game_id = await _open(table, "facts")
    envelope = await _suggest_the_envelope(table, game_id)
    text = (await _notebook(table.carol, table, "/notebook text")).text
    assert text.startswith("📓 Cluedo club: блокнот игрока @carol (день 1)\n")
    assert literal("ru", "notebook.section_known") in text
    game = await state(table, game_id)
    carol = game.player_of(table.carol.id)
    assert carol is not None
    for card in carol.hand:
        assert f"• {card_name(card, 'ru')}: {t('ru', 'notebook.you')}" in text
    for card in envelope:  # public: nobody could refute, so not in those hands
        assert card_name(card, "ru") in text

    await table.bot.say(table.alice, table.group, "/endgame")
    await table.bot.say(table.alice, table.group, "/settings notebook off")
    game = await state(table, await _open(table, "off"))
    bob = game.player_of(table.bob.id)
    assert bob is not None
    shown = await _notebook(table.bob, table)
    assert shown.photo is None
    off = t("en", "notebook.off", cards=_names(list(bob.hand)))
    assert shown.text == f"🎲 Cluedo club\n{off}"
