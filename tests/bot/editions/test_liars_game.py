"""Liars Edition games played by buttons through the fake Bot API: to a win, through a
truthful card challenged, a lie caught, a lie not challenged and a pass to the left; and
a game in Russian."""

from __future__ import annotations

from engine.liars.cards import LIARS_PACK
from engine.liars.state import liars_of, liars_part
from engine.state import Phase
from fakebot import FakeUser
from tests.support.harness import Party, bot_messages
from tests.support.liars_play import LiarsPlayer
from tests.support.play import card_name
from tests.support.table_play import fix_seed, open_classic

SEED = 21


def _texts(person: FakeUser) -> list[str]:
    return [m.text for m in person.private_messages()]


async def _play(table: Party, lang: str, words: str) -> tuple[LiarsPlayer, list[FakeUser]]:
    people = [table.alice, table.bob, table.carol]
    game_id = await open_classic(table, people, words=words)
    player = LiarsPlayer(table, game_id, people, lang=lang)
    for _ in range(40):
        await player.turn()
        seen = player.liars_seen
        if seen.truth_called and seen.lies_caught and seen.lies_uncalled and seen.passes:
            break
    return player, people


async def test_a_liars_game_by_buttons_through_every_card_scenario_to_a_win(table: Party) -> None:
    fix_seed(table, SEED)
    player, people = await _play(table, "en", "/newgame liars")
    seen = player.liars_seen
    group = [m.text for m in bot_messages(table.group)]
    assert any(t.startswith("🤥 Cluedo: Liars Edition begins") for t in group)
    pictures = [m for m in bot_messages(table.group) if m.photo is not None]
    assert pictures, "the ring board comes as a picture"

    # A truthful card challenged: the presser's random card reaches the reader only.
    assert seen.truth_called, "no truthful card was challenged"
    _, reader, card = seen.truth_called[0]
    name = card_name(card)
    for person in people:
        got = any(name in m and "was wrong" in m for m in _texts(person))
        assert got == (person.id == reader), person.first_name
    assert any("was the truth" in t for t in group)

    # A lie caught: the card goes face up and everyone is told which.
    assert seen.lies_caught, "no lie was caught"
    _, shown = seen.lies_caught[0]
    assert any("was a lie" in t for t in group)
    assert any(f"puts {shown} face up" in t for t in group)
    game = await player.game()
    assert game.table is not None and liars_of(game.table) is not None
    assert any(card_name(c) == shown for c in liars_part(game.table).face_up)

    # A lie not challenged: the action happens (the reader peeked).
    assert seen.lies_uncalled and seen.peeks, "no lie went unchallenged"
    assert any("Nobody called Liar!" in t for t in group)

    # Pass one card left: everyone told privately what they got and their hand now.
    assert seen.passes, "no pass to the left"
    assert any("passed to the left" in t for t in group)
    for person in people:
        mine = game.player_of(person.id)
        assert mine is not None
        latest = [m for m in _texts(person) if "Your cards now" in m or "Your cards</b>" in m]
        assert latest, person.first_name
    # Each player's last hand message names exactly their hand now (kept right).
    for person in people:
        mine = game.player_of(person.id)
        assert mine is not None
        last = [m for m in _texts(person) if "Your cards now" in m][-1]
        named = {c for c in LIARS_PACK.all_cards if card_name(c) in last.split("Your cards now")[1]}
        assert named == set(mine.hand), person.first_name
    # No card name in the group's card, Liar! and pass posts (only a face-up card is told).
    secret = ("reads their investigation card", "calls <b>Liar!", "calls Liar!", "to the left")
    roles = {card_name(p.role) for p in game.players}  # public: who plays whom
    for text in (line for post in group for line in post.split("\n")):
        if any(s in text for s in secret):
            named = {card_name(c) for c in LIARS_PACK.all_cards if card_name(c) in text}
            assert named <= roles, text

    # /status tells the ring in words, the face-up cards included.
    await table.bot.say(table.bob, table.group, "/status")
    status = bot_messages(table.group)[-1].text
    assert "Face up in the Interrogation Room" in status and shown in status

    # A win by buttons.
    game = await player.game()
    assert game.envelope is not None and game.table is not None
    if game.table.step.value != "roll":
        await player.press(
            await player.current(), player_prompt(table), player.label("button.end_turn")
        )
    await player.accuse(await player.current(), game.envelope)
    game = await player.game()
    assert game.phase is Phase.ENDED and game.winner is not None


def player_prompt(table: Party):  # type: ignore[no-untyped-def]
    from tests.support.table_play import prompt

    return prompt(table)


async def test_a_liars_game_in_russian(table: Party) -> None:
    for person in (table.alice, table.bob, table.carol):
        person.language_code = "ru"
    await table.bot.say(table.alice, table.group, "/language ru")
    fix_seed(table, SEED)
    player, people = await _play(table, "ru", "/newgame лжецы")
    game = await player.game()
    assert game.settings.format == "liars" and game.envelope is not None
    group = [m.text for m in bot_messages(table.group)]
    assert any(t.startswith("🤥 «Клуэдо: Лжецы» начинается") for t in group)
    assert any("Лжец!" in t for t in group)
    assert not any("Roll" in t or "Turn " in t or "Liar!" in t for t in group)
    for person in people:
        mine = game.player_of(person.id)
        assert mine is not None
        hand = next(m for m in _texts(person) if "Ваши карты" in m)
        assert "Ваша карта расследования" in "\n".join(_texts(person))
        assert hand
    assert card_name("statue", "ru") == "Статуя"
    await table.bot.say(table.bob, table.group, "/rules")
    rules = bot_messages(table.group)[-1].text
    assert rules.startswith("📜 Правила: «Клуэдо: Лжецы» (2020)") and "«Лжец!»" in rules


async def test_rules_of_either_edition_asked_by_name_in_a_private_chat(table: Party) -> None:
    if not table.alice.started:
        table.alice.start_bot()
        await table.bot.settle()
    await table.bot.say(table.alice, None, "/rules liars")
    assert table.alice.private_messages()[-1].text.startswith("📜 The rules: Cluedo — Liars")
    await table.bot.say(table.alice, None, "/rules 2023")
    assert table.alice.private_messages()[-1].text.startswith("📜 The rules: Cluedo, the 2023")
    await table.bot.say(table.alice, None, "/rules")
    assert "Liars" not in table.alice.private_messages()[-1].text
