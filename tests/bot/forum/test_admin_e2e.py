"""Admin commands end to end: void by reply, pause and resume, extend, remove, replace, end."""

from __future__ import annotations

from datetime import timedelta

from engine.state import Answer, Phase
from tests.support.harness import Party, bot_messages, end_post
from tests.support.play import card_name, naming, open_and_start, state


def _typed(target: str, cards: tuple[str, str, str]) -> str:
    return f"/suggest @{target} " + "; ".join(card_name(c) for c in cards)


async def test_void_by_reply_refunds_the_suggestion_and_closes_the_prompt(table: Party) -> None:
    game_id = await open_and_start(table)
    game = await state(table, game_id)
    carol = game.player_of(table.carol.id)
    assert carol is not None
    held = carol.hand[0]
    cards = naming(game, held)
    await table.bot.say(table.bob, table.group, _typed("carol", cards))
    post = bot_messages(table.group)[-1]
    assert post.text.startswith("Suggestion 1 for @carol")
    await table.bot.say(table.alice, table.group, "/void", reply_to=post)
    notice = bot_messages(table.group)[-1]
    assert "is void" in notice.text and notice.reply_to is not None
    assert notice.reply_to.message_id == post.message_id
    game = await state(table, game_id)
    assert game.suggestions[0].answer is Answer.VOIDED
    assert game.quota_left(game.players[game.player_of(table.bob.id).seat]) == 3  # type: ignore[union-attr]
    prompt = next(m for m in table.carol.private_messages() if "Suggestion 1" in m.text)
    assert prompt.buttons == [] and "voided this suggestion" in prompt.text
    assert "answered" not in prompt.text.lower()
    assert all(card_name(c) in prompt.text for c in cards)  # it still shows the suggestion
    assert notice.bold == ["@bob's suggestion 1 is void"]  # marked as the forum marks it


async def test_pause_stops_the_clock_and_resume_moves_the_deadline(table: Party) -> None:
    game_id = await open_and_start(table)
    before = (await state(table, game_id)).day_ends_at
    assert before is not None
    await table.bot.say(table.alice, table.group, "/pause")
    assert "paused" in bot_messages(table.group)[-1].text
    await table.bot.advance(timedelta(hours=30))
    assert (await state(table, game_id)).day == 1
    await table.bot.say(table.alice, table.group, "/resume")
    game = await state(table, game_id)
    assert game.day_ends_at == before + timedelta(hours=30)
    assert "goes on after a pause of 1 day 6 hours" in bot_messages(table.group)[-1].text


async def test_extend_remove_replace_and_end(table: Party) -> None:
    game_id = await open_and_start(table)
    before = (await state(table, game_id)).day_ends_at
    assert before is not None
    await table.bot.say(table.alice, table.group, "/extend 2h")
    assert (await state(table, game_id)).day_ends_at == before + timedelta(hours=2)
    # A name the bot cannot place is said so, and changes nothing.
    unknown = "I do not know @{}: they must write in this chat or start me first."
    await table.bot.say(table.alice, table.group, "/remove @nobody")
    assert bot_messages(table.group)[-1].text == unknown.format("nobody")
    await table.bot.say(table.alice, table.group, "/replace @carol @stranger")
    assert bot_messages(table.group)[-1].text == unknown.format("stranger")
    game = await state(table, game_id)
    assert all(p.active for p in game.players) and game.player_of(table.carol.id) is not None
    await table.bot.say(table.alice, table.group, "/remove @dave")
    game = await state(table, game_id)
    assert not game.player_of(table.dave.id).active  # type: ignore[union-attr]
    assert "@dave was removed" in bot_messages(table.group)[-1].text
    erin = table.server.add_user("Erin", username="erin")
    erin.start_bot()
    await table.bot.say(erin, table.group, "hello")  # the bot learns her name
    await table.bot.say(table.alice, table.group, "/replace @carol @erin")
    game = await state(table, game_id)
    seat = game.player_of(erin.id)
    assert seat is not None and game.player_of(table.carol.id) is None
    assert any("Your cards" in m.text for m in erin.private_messages())
    await table.bot.say(table.alice, table.group, "/endgame")
    game = await state(table, game_id)
    assert game.phase is Phase.ENDED
    final = end_post(table.group)
    assert "ended by an admin" in final.text
    assert game.envelope is not None and all(card_name(c) in final.text for c in game.envelope)


async def test_public_log_of_the_day_hides_the_shown_card(table: Party) -> None:
    game_id = await open_and_start(table)
    game = await state(table, game_id)
    carol = game.player_of(table.carol.id)
    assert carol is not None
    held = carol.hand[0]
    cards = naming(game, held)
    named = cards
    await table.bot.say(table.bob, table.group, _typed("carol", named))
    prompt = await table.carol.wait_private(lambda m: bool(m.buttons))
    await table.bot.press(table.carol, prompt, card_name(held))
    await table.bot.say(table.dave, table.group, "/log")
    log = bot_messages(table.group)[-1]
    assert "@bob's suggestion 1 to @carol" in log.text and "refuted" in log.text
    assert log.text.count(card_name(held)) == 1, "the card appears as named, never as shown"


async def test_a_replacement_answers_what_the_seat_owes(table: Party) -> None:
    game_id = await open_and_start(table)
    game = await state(table, game_id)
    carol = game.player_of(table.carol.id)
    assert carol is not None
    held = carol.hand[0]
    cards = naming(game, held)
    await table.bot.say(table.bob, table.group, _typed("carol", cards))
    old_prompt = await table.carol.wait_private(lambda m: bool(m.buttons))
    erin = table.server.add_user("Erin", username="erin")
    erin.start_bot()
    await table.bot.settle()
    await table.bot.say(table.alice, table.group, "/replace @carol @erin")
    old_prompt = next(
        m for m in table.carol.private_messages() if m.message_id == old_prompt.message_id
    )
    assert old_prompt.buttons == [] and "took over your seat" in old_prompt.text
    new_prompt = await erin.wait_private(lambda m: bool(m.buttons))
    await table.bot.press(erin, new_prompt, card_name(held))
    assert any(
        card_name(held) in m.text and "shows you" in m.text for m in table.bob.private_messages()
    )
    game = await state(table, game_id)
    assert game.suggestions[0].answer is Answer.REFUTED
